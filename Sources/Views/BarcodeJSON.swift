import Catalog
import Foundation

/// One barcode hit of `show --json`; the box is in the scanned image's stored pixels.
public struct BarcodeJSON: Encodable, Sendable {
    public var symbology: String
    public var text: String
    @NullWhenAbsent public var gtin13: String?
    @NullWhenAbsent public var addon: String?
    public var quality: Int
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(_ hit: BarcodeHit) {
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
