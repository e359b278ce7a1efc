internal import CZXingShim
import Vocabulary

/// zxing-cpp, the second barcode decoder: it binarises and finds codes differently from ZBar, so
/// it reads some photos ZBar cannot (and the other way round). Every zxing-cpp call is in this file.
///
/// Stateless: a photo's reads do not depend on what was read before, and any thread may use it.
public struct ZXingScanner: Sendable {
    private let formats: Int32
    private let symbologies: Set<Symbology>

    public init(symbologies: Set<Symbology>) {
        self.symbologies = symbologies
        formats = symbologies.reduce(0) { $0 | $1.zxingFormat }
    }

    /// At most this many symbols per image: a product photo holds one or two.
    private static let capacity = 16

    /// Every symbol zxing-cpp decodes in `image` as it is (not turned, not shrunk), with
    /// coordinates in that image's pixels; none when zxing-cpp fails.
    public func scan(_ image: GreyImage) -> [DecodedSymbol] {
        guard image.width > 0, image.height > 0, formats != 0 else { return [] }
        var symbols = [ingest_zxing_symbol](repeating: ingest_zxing_symbol(), count: Self.capacity)
        let count = image.pixels.withUnsafeBufferPointer { pixels in
            ingest_zxing_read(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                              formats, &symbols, Int32(Self.capacity))
        }
        guard count > 0 else { return [] }
        defer { ingest_zxing_free(&symbols, count) }
        return symbols.prefix(Int(count)).compactMap { symbol in
            guard let symbology = Symbology(zxingFormat: symbol.format), symbologies.contains(symbology),
                  let text = symbol.text else { return nil }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(symbol.text_length))
            return DecodedSymbol(symbology: symbology, text: String(decoding: bytes, as: UTF8.self),
                                 quality: Int(symbol.line_count),
                                 box: PixelBox(x: Int(symbol.x), y: Int(symbol.y),
                                               width: Int(symbol.width), height: Int(symbol.height)))
        }
    }
}

extension Symbology {
    /// The ZXing::BarcodeFormat bit (ZXing/BarcodeFormat.h; the values are part of its C interface).
    var zxingFormat: Int32 {
        switch self {
        case .code93: 1 << 3
        case .code128: 1 << 4
        case .ean8: 1 << 8
        case .ean13: 1 << 9
        case .qr: 1 << 13
        case .upcA: 1 << 14
        case .upcE: 1 << 15
        }
    }

    init?(zxingFormat: Int32) {
        guard let match = Symbology.allCases.first(where: { $0.zxingFormat == zxingFormat }) else { return nil }
        self = match
    }
}
