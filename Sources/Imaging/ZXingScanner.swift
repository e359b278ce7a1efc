internal import CZXingShim
package import Vocabulary

/// zxing-cpp, the second barcode decoder: it binarises and finds codes differently from ZBar, so
/// it reads some photos ZBar cannot (and the other way round). Every zxing-cpp call is in this file.
///
/// Stateless: a photo's reads do not depend on what was read before, and any thread may use it.
package struct ZXingScanner: Sendable {
    private let formats: Int32
    private let symbologies: Set<Symbology>
    /// Where to find what it read on an image before (`ReadMemo`), or nil.
    package var memo: ReadMemo?

    package init(symbologies: Set<Symbology>) {
        self.symbologies = symbologies
        formats = symbologies.reduce(0) { $0 | $1.zxingFormat }
    }

    /// At most this many symbols per image: a product photo holds one or two.
    private static let capacity = 16

    /// The pixel rows that `lines` agreeing lines of a linear code stand for in an image `height`
    /// rows high, as ZBar counts lines at density 1. zxing-cpp (ODReader, with tryHarder and
    /// several symbols) steps to every `spacing`-th row: every row up to 1023 rows high, every
    /// height/512-th above. Where it first reads a code it also reads the row or two on either side
    /// of that row (one with rows 2 apart, two with rows 3 or more apart), each counted a line.
    static func pixelRows(lines: Int, height: Int) -> Int {
        let spacing = max(1, height / 512)
        let checkRows = min(max(0, lines - 1), 2 * min(2, spacing - 1))
        return (lines - checkRows) * spacing + checkRows
    }

    /// The ways zxing-cpp may look at an image beyond as it is.
    package struct Ways: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Turned by a right angle: a linear code's lines also run down the columns, so a code
        /// reads whichever way the photo was stored (a phone held upright stores it lying).
        package static let turned = Ways(rawValue: INGEST_ZXING_TURNED)
        package static let shrunk = Ways(rawValue: INGEST_ZXING_SHRUNK)
        package static let inverted = Ways(rawValue: INGEST_ZXING_INVERTED)
        /// What zxing-cpp's own defaults try.
        package static let every: Ways = [.turned, .shrunk, .inverted]
    }

    /// Every symbol zxing-cpp decodes in `image` as it is, and in the `ways` asked for (the caller
    /// turns, shrinks or inverts itself otherwise), with coordinates in that image's pixels; none
    /// when zxing-cpp fails. A linear code's `quality` is the pixel rows (or columns, read turned)
    /// its agreeing lines stand for (`pixelRows`), whatever the image's size.
    package func scan(_ image: GreyImage, ways: Ways = []) -> [DecodedSymbol] {
        guard let memo else { return read(image, ways: ways) }
        return memo.value("zxing-cpp \(formats) \(ways.rawValue)", image) { read(image, ways: ways) }
    }

    private func read(_ image: GreyImage, ways: Ways) -> [DecodedSymbol] {
        guard image.width > 0, image.height > 0, formats != 0 else { return [] }
        var symbols = [ingest_zxing_symbol](repeating: ingest_zxing_symbol(), count: Self.capacity)
        let count = image.pixels.withUnsafeBufferPointer { pixels in
            ingest_zxing_read(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                              formats, ways.rawValue, &symbols, Int32(Self.capacity))
        }
        guard count > 0 else { return [] }
        defer { ingest_zxing_free(&symbols, count) }
        return symbols.prefix(Int(count)).compactMap { symbol in
            guard let symbology = Symbology(zxingFormat: symbol.format), symbologies.contains(symbology),
                  let text = symbol.text else { return nil }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(symbol.text_length))
            return DecodedSymbol(symbology: symbology, text: String(decoding: bytes, as: UTF8.self),
                                 quality: symbology == .qr ? Int(symbol.line_count)
                                     : Self.pixelRows(lines: Int(symbol.line_count),
                                                      height: symbol.down_columns != 0 ? image.width : image.height),
                                 box: PixelBox(x: Int(symbol.x), y: Int(symbol.y),
                                               width: Int(symbol.width), height: Int(symbol.height)))
        }
    }
}

extension Symbology {
    /// The bit of this symbology in CZXingShim's interface (INGEST_ZXING_…).
    var zxingFormat: Int32 {
        switch self {
        case .ean8: INGEST_ZXING_EAN8
        case .ean13: INGEST_ZXING_EAN13
        case .upcA: INGEST_ZXING_UPCA
        case .upcE: INGEST_ZXING_UPCE
        case .code93: INGEST_ZXING_CODE93
        case .code128: INGEST_ZXING_CODE128
        case .qr: INGEST_ZXING_QR
        }
    }

    init?(zxingFormat: Int32) {
        guard let match = Symbology.allCases.first(where: { $0.zxingFormat == zxingFormat }) else { return nil }
        self = match
    }
}
