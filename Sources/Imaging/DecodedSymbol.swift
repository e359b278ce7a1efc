internal import CZBar
import Catalog

/// One symbol as ZBar reported it, before check-digit validation and normalisation.
public struct DecodedSymbol: Equatable, Sendable {
    public var symbology: Symbology
    public var text: String
    /// ZBar's quality: for linear codes the number of scan lines that agreed.
    public var quality: Int
    /// Bounding box of ZBar's location points.
    public var box: PixelBox

    init?(_ symbol: OpaquePointer) {
        guard let symbology = Symbology(zbarType: zbar_symbol_get_type(symbol)),
              let data = zbar_symbol_get_data(symbol) else { return nil }
        let length = Int(zbar_symbol_get_data_length(symbol))
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        self.symbology = symbology
        text = String(decoding: bytes, as: UTF8.self)
        quality = Int(zbar_symbol_get_quality(symbol))
        let count = zbar_symbol_get_loc_size(symbol)
        let xs = (0..<count).map { Int(zbar_symbol_get_loc_x(symbol, $0)) }
        let ys = (0..<count).map { Int(zbar_symbol_get_loc_y(symbol, $0)) }
        box = PixelBox(x: xs.min() ?? 0, y: ys.min() ?? 0,
                       width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
    }

    public init(symbology: Symbology, text: String, quality: Int, box: PixelBox) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
        self.box = box
    }
}
