internal import CZBar
import Catalog

/// A ZBar image scanner. Every ZBar call is in this file and `DecodedSymbol.swift`.
///
/// Not thread-safe, and not to be shared between photos: ZBar's scanner keeps decoder state from
/// one image to the next, so a shared scanner made a photo's reads depend on the photos before it.
public final class BarcodeScanner {
    private let scanner: OpaquePointer
    private let symbologies: Set<Symbology>

    /// A scanner reading only `symbologies`, along every `density`-th row and column; `rowsOnly`
    /// skips the columns, for images whose bars were turned upright.
    public init(symbologies: Set<Symbology>, density: Int = 1, rowsOnly: Bool = false) {
        scanner = zbar_image_scanner_create()
        self.symbologies = symbologies
        // Everything off first: ZBar enables most symbologies by default, and an unwanted
        // one (Code 39, Interleaved 2 of 5, DataBar) only adds chances for a false read.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in symbologies {
            zbar_image_scanner_set_config(scanner, symbology.zbarType, ZBAR_CFG_ENABLE, 1)
        }
        // A QR code's bytes as they are: ZBar's guess of their encoding turned Shift-JIS text (most
        // Japanese codes) into other characters. `DecodedSymbol` decodes them instead.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, rowsOnly ? 0 : Int32(density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
    }

    deinit {
        zbar_image_scanner_destroy(scanner)
    }

    /// Every symbol ZBar decodes in `image`, with coordinates in that image's pixels.
    public func scan(_ image: GreyImage) -> [DecodedSymbol] {
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
