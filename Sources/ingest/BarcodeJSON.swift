import Catalog
import Foundation

/// One barcode hit of `show --json`; the box is in the scanned image's stored pixels.
struct BarcodeJSON: Encodable {
    var symbology: String
    var text: String
    @NullWhenAbsent var gtin13: String?
    var quality: Int
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(_ hit: BarcodeHit) {
        symbology = hit.symbology.rawValue
        text = hit.text
        gtin13 = hit.gtin13
        quality = hit.quality
        x = hit.x
        y = hit.y
        width = hit.width
        height = hit.height
    }
}
