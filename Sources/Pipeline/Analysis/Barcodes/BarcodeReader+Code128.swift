import Imaging
import Vocabulary
import Catalog

extension BarcodeReader {
    /// The photo's codes with each Code 128 text as the code holds it.
    ///
    /// Code 128 reaches the upper half of ISO 8859-1 through FNC4: FNC4 then `s` is `ó`. ZBar drops
    /// FNC4 and gives `s`; zxing-cpp honours it. So where ZBar read a Code 128, zxing-cpp reads the
    /// region again, and its text replaces ZBar's when the two are the same code, character for
    /// character, once FNC4's shift is taken off zxing-cpp's. Code 128 is rare on groceries: a
    /// zxing-cpp read per Code 128 read costs nothing elsewhere.
    /// - Parameter shrink: how many full-resolution pixels one pixel of `pixels` spans (the
    ///   readings' boxes are in full-resolution pixels).
    func withExtendedCharacters(_ barcodes: PhotoBarcodes, in pixels: GreyImage, shrink: Int, scanners: Scanners) -> PhotoBarcodes {
        var barcodes = barcodes
        barcodes.confirmed = barcodes.confirmed.map { reading in
            guard reading.symbology == .code128 else { return reading }
            // Read as every second opinion is (`zxingReads`): as it lies, else enlarged. At the
            // overview's scale zxing-cpp missed the code of a close-up enlarged ×1.4 that it read ×2.5.
            let texts = zxingReads(Self.surroundings(of: reading.box.shrunk(by: shrink), in: pixels), in: pixels, scanners: scanners)
                .filter { $0.symbology == .code128 }.map(\.text)
            guard let extended = texts.first(where: { Self.isExtended($0, of: reading.text) }) else { return reading }
            var copy = reading
            copy.text = extended
            return copy
        }
        return barcodes
    }

    /// True when `extended` holds characters of ISO 8859-1's upper half and is `plain` with them
    /// shifted down by 128, as a decoder that ignores FNC4 reads them.
    static func isExtended(_ extended: String, of plain: String) -> Bool {
        extended.unicodeScalars.contains { (0x80...0xFF).contains($0.value) }
            && withoutFNC4(extended) == plain
    }

    /// `text` as a decoder that ignores FNC4 reads it: the characters of ISO 8859-1's upper half
    /// shifted down by 128.
    static func withoutFNC4(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            (0x80...0xFF).contains(scalar.value) ? Unicode.Scalar(scalar.value - 0x80)! : scalar
        }))
    }
}

extension BarcodeReading {
    /// What two decoders' reads of one code share: `productKey`, but a Code 128's text as ZBar
    /// reads it, without FNC4 (`BarcodeReader.withoutFNC4`). Where zxing-cpp read `ó` and ZBar `s`,
    /// the two read the same code: their reads confirm each other, not contradict.
    var decodedKey: String {
        symbology == .code128 ? BarcodeReader.withoutFNC4(text) : productKey
    }

    /// True when `other` is a read of the same code, by whichever decoder (`decodedKey`).
    func isSameCode(as other: BarcodeReading) -> Bool { decodedKey == other.decodedKey }
}
