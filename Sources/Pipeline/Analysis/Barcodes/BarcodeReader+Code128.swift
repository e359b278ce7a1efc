import Catalog
import Imaging

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
            let area = Self.surroundings(of: reading.box.shrunk(by: shrink), in: pixels)
            guard area.width > 0, area.height > 0 else { return reading }
            let texts = scanners.zxing.scan(pixels.cropped(to: area).padded(by: 16), ways: .turned)
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
        let shifted = extended.unicodeScalars.map { scalar in
            (0x80...0xFF).contains(scalar.value) ? scalar.value - 0x80 : scalar.value
        }
        return extended.unicodeScalars.contains { (0x80...0xFF).contains($0.value) }
            && shifted == plain.unicodeScalars.map(\.value)
    }
}
