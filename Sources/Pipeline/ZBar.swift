import CZBar

/// The one place that calls ZBar. A scanner is not thread-safe: each worker owns one.
final class BarcodeScanner {
    private let scanner: OpaquePointer
    private let symbologies: Set<Symbology>

    /// A scanner reading only `symbologies`, along every `density`-th row and column; `rowsOnly`
    /// skips the columns, for images whose bars were turned upright.
    init(symbologies: Set<Symbology>, density: Int = 1, rowsOnly: Bool = false) {
        scanner = zbar_image_scanner_create()
        self.symbologies = symbologies
        // Everything off first: ZBar enables most symbologies by default, and an unwanted
        // one (Code 39, Interleaved 2 of 5, DataBar) only adds chances for a false read.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in symbologies {
            zbar_image_scanner_set_config(scanner, symbology.zbarType, ZBAR_CFG_ENABLE, 1)
        }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, rowsOnly ? 0 : Int32(density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
    }

    deinit {
        zbar_image_scanner_destroy(scanner)
    }

    /// Every symbol ZBar decodes in `image`, with coordinates in that image's pixels.
    func scan(_ image: GreyImage) -> [DecodedSymbol] {
        guard image.width > 0, image.height > 0, let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, 0x3030_3859) // fourcc "Y800": 8-bit grey
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBufferPointer { pixels -> [DecodedSymbol] in
            // ZBar only reads the buffer during zbar_scan_image; no cleanup handler, Swift owns it.
            zbar_image_set_data(zimage, pixels.baseAddress, UInt(pixels.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return [] }
            var found: [DecodedSymbol] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if let decoded = DecodedSymbol(current), symbologies.contains(decoded.symbology) {
                    found.append(decoded)
                }
                symbol = zbar_symbol_next(current)
            }
            return found
        }
    }
}

/// One symbol as ZBar reported it, before check-digit validation and normalisation.
struct DecodedSymbol: Equatable {
    var symbology: Symbology
    var text: String
    var quality: Int
    /// Bounding box of ZBar's location points.
    var box: PixelBox

    fileprivate init?(_ symbol: OpaquePointer) {
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

    init(symbology: Symbology, text: String, quality: Int, box: PixelBox) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
        self.box = box
    }
}

/// A rectangle in pixel coordinates.
public struct PixelBox: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box in the coordinates of an image `factor` times larger.
    func scaled(by factor: Int) -> PixelBox {
        PixelBox(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }
}

extension Symbology {
    fileprivate var zbarType: zbar_symbol_type_t {
        switch self {
        case .ean13: ZBAR_EAN13
        case .upcA: ZBAR_UPCA
        case .upcE: ZBAR_UPCE
        case .ean8: ZBAR_EAN8
        case .code128: ZBAR_CODE128
        case .code93: ZBAR_CODE93
        case .qr: ZBAR_QRCODE
        }
    }

    fileprivate init?(zbarType: zbar_symbol_type_t) {
        guard let match = Symbology.allCases.first(where: { $0.zbarType == zbarType }) else { return nil }
        self = match
    }
}
