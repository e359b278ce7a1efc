import Vocabulary

/// One barcode ZBar found on a photo. Every hit is kept, also those that did not become the capture's barcode.
package struct BarcodeHit: Codable, Hashable, Sendable {
    package var id: Int64?
    package var photoId: String
    package var symbology: Symbology
    /// The normalised code text (UPC-E expanded).
    package var text: String
    package var gtin13: String?
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    package var quality: Int
    /// Bounding box of ZBar's location points, in upright-independent stored-pixel coordinates of the scanned image.
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    /// The 2- or 5-digit add-on beside an EAN-13 or UPC code, apart from the code.
    package var addon: String?

    package init(id: Int64? = nil, photoId: String, symbology: Symbology, text: String, gtin13: String?, quality: Int,
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

    /// What identifies the product: the GTIN-13 of a retail code, the text otherwise.
    package var code: String { gtin13 ?? text }
}

extension Capture {
    /// The codes, other than its own barcode, that `hits` (its photos', in their order) read, each
    /// once: a second product on a shelf photo, a QR code or a price code on the package.
    package func otherCodes(among hits: [BarcodeHit]) -> [String] {
        var codes: [String] = []
        for hit in hits where hit.code != (gtin13 ?? barcode) && !codes.contains(hit.code) { codes.append(hit.code) }
        return codes
    }
}
