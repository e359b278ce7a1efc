import Vocabulary

/// One barcode ZBar found on a photo. Every hit is kept, also those that did not become the capture's barcode.
public struct BarcodeHit: Codable, Hashable, Sendable {
    public var id: Int64?
    public var photoId: String
    public var symbology: Symbology
    /// The normalised code text (UPC-E expanded).
    public var text: String
    public var gtin13: String?
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    public var quality: Int
    /// Bounding box of ZBar's location points, in upright-independent stored-pixel coordinates of the scanned image.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The 2- or 5-digit add-on beside an EAN-13 or UPC code, apart from the code.
    public var addon: String?

    public init(id: Int64? = nil, photoId: String, symbology: Symbology, text: String, gtin13: String?, quality: Int,
                x: Int, y: Int, width: Int, height: Int, addon: String? = nil) {
        self.id = id
        self.photoId = photoId
        self.symbology = symbology
        self.text = text
        self.gtin13 = gtin13
        self.quality = quality
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.addon = addon
    }
}
