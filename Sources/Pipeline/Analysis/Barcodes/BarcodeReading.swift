package import Imaging
package import Vocabulary

/// A barcode read from a photo and validated: retail codes passed their check digit.
package struct BarcodeReading: Sendable, Equatable {
    /// The symbology as ZBar read it.
    package var symbology: Symbology
    /// The code text; a UPC-E is expanded to its 12-digit UPC-A form.
    package var text: String
    /// GTIN-13 of a retail code (UPC-A and UPC-E with a leading 0, EAN-8 zero-padded).
    package var gtin13: String?
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    package var quality: Int
    /// Where it was found, in the photo's stored (not rotated) full-resolution pixels.
    package var box: PixelBox
    /// The 2- or 5-digit add-on beside an EAN-13 or UPC code (a magazine's issue, a book's price),
    /// kept apart: the GTIN alone identifies the product.
    package var addon: String?

    /// The reading with its box in the coordinates of an image `factor` times larger.
    func scaled(by factor: Int) -> BarcodeReading {
        var copy = self
        copy.box = box.scaled(by: factor)
        return copy
    }

    /// What identifies the product: the GTIN for retail codes, the text otherwise.
    package var productKey: String { gtin13 ?? text }

    /// A retail code whose GTIN names a trade item (`GTIN.namesTradeItem`), not a shop's own code,
    /// a coupon or a price code.
    var namesTradeItem: Bool { gtin13.map(GTIN.namesTradeItem) ?? false }
}
