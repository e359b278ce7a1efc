internal import CZBar
import Foundation
package import Vocabulary

/// One symbol as ZBar reported it, before check-digit validation and normalisation.
package struct DecodedSymbol: Equatable, Sendable {
    package var symbology: Symbology
    package var text: String
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    package var quality: Int
    /// Bounding box of ZBar's location points.
    package var box: PixelBox
    /// True for the 2- or 5-digit add-on printed beside an EAN-13 or UPC code, read alone
    /// (`BarcodeScanner.addons()`): its digits are `text`.
    package var isAddon = false

    init?(_ symbol: OpaquePointer) {
        guard let symbology = Symbology(zbarType: zbar_symbol_get_type(symbol)),
              let data = zbar_symbol_get_data(symbol) else { return nil }
        let length = Int(zbar_symbol_get_data_length(symbol))
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        self.symbology = symbology
        text = symbology == .qr ? Self.qrText(Array(bytes)) : String(decoding: bytes, as: UTF8.self)
        quality = Int(zbar_symbol_get_quality(symbol))
        box = Self.box(of: symbol)
    }

    /// An EAN-2 or EAN-5 add-on symbol (`isAddon`, labelled EAN-13: it has no symbology of its
    /// own), nil for any other.
    static func addon(_ symbol: OpaquePointer) -> DecodedSymbol? {
        let type = zbar_symbol_get_type(symbol)
        guard type == ZBAR_EAN2 || type == ZBAR_EAN5, let data = zbar_symbol_get_data(symbol) else { return nil }
        let text = String(cString: data)
        guard text.count == (type == ZBAR_EAN2 ? 2 : 5), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var addon = DecodedSymbol(symbology: .ean13, text: text, quality: Int(zbar_symbol_get_quality(symbol)), box: box(of: symbol))
        addon.isAddon = true
        return addon
    }

    /// The bounding box of ZBar's location points of `symbol`.
    private static func box(of symbol: OpaquePointer) -> PixelBox {
        let count = zbar_symbol_get_loc_size(symbol)
        let xs = (0..<count).map { Int(zbar_symbol_get_loc_x(symbol, $0)) }
        let ys = (0..<count).map { Int(zbar_symbol_get_loc_y(symbol, $0)) }
        return PixelBox(around: xs, ys)
    }

    /// A QR code's bytes as text. The standard's default is ISO 8859-1, but codes in the wild are
    /// UTF-8 or, from Japan where QR codes began, Shift-JIS (its Kanji mode is Shift-JIS too): the
    /// first of UTF-8 and Shift-JIS that the bytes are valid in, else ISO 8859-1, which takes any.
    /// Readers such as zxing guess the same way.
    static func qrText(_ bytes: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        if let shiftJIS = String(bytes: bytes, encoding: .shiftJIS) { return shiftJIS }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    package init(symbology: Symbology, text: String, quality: Int, box: PixelBox) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
        self.box = box
    }
}
