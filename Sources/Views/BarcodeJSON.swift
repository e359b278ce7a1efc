package import Catalog
import Foundation
import Vocabulary

/// One barcode hit of `show --json`; the box is in the scanned image's stored pixels.
package struct BarcodeJSON: Encodable, Sendable {
    package var symbology: String
    package var text: String
    @NullWhenAbsent package var gtin13: String?
    @NullWhenAbsent package var addon: String?
    package var quality: Int
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(_ hit: BarcodeHit) {
        symbology = hit.symbology.rawValue
        text = hit.text
        gtin13 = hit.gtin13
        addon = hit.addon
        quality = hit.quality
        x = hit.x
        y = hit.y
        width = hit.width
        height = hit.height
    }
}
