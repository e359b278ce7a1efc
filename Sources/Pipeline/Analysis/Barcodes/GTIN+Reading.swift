import Imaging
import Vocabulary

extension GTIN {
    /// Validates a symbol a decoder read and normalises it (`normalised(_:as:)`), or nil when it
    /// must not be trusted.
    static func reading(from symbol: DecodedSymbol) -> BarcodeReading? {
        guard let code = normalised(symbol.text, as: symbol.symbology) else { return nil }
        return BarcodeReading(symbology: symbol.symbology, text: code.text, gtin13: code.gtin13,
                              quality: symbol.quality, box: symbol.box)
    }
}
