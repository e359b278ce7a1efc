internal import CZBar
package import Vocabulary

/// A ZBar image scanner. Every ZBar call is in this file and `DecodedSymbol.swift`.
///
/// Not thread-safe, and not to be shared between photos: ZBar's scanner keeps decoder state from
/// one image to the next, so a shared scanner made a photo's reads depend on the photos before it.
package final class BarcodeScanner {
    private let scanner: OpaquePointer
    private let symbologies: Set<Symbology>
    private let addonsOnly: Bool
    /// Its settings, as `memo` tells its results from other scanners'.
    private let settings: String
    /// Where to find what it read on an image before (`ReadMemo`), or nil.
    package var memo: ReadMemo?

    /// A scanner reading only `symbologies`, along every `density`-th row and column; `rowsOnly`
    /// skips the columns, for images whose bars were turned upright.
    package convenience init(symbologies: Set<Symbology>, density: Int = 1, rowsOnly: Bool = false) {
        self.init(symbologies: symbologies, density: density, rowsOnly: rowsOnly, addonsOnly: false)
    }

    /// A scanner of the 2- and 5-digit add-ons printed beside EAN-13 and UPC codes (books,
    /// magazines) alone, along every `density`-th line: each is a symbol of its own, its digits as
    /// text (`DecodedSymbol.isAddon`). Apart from the codes' scanners: with add-ons on, ZBar lost
    /// codes it reads without them (a UPC-A enlarged ×3 gave only its add-on).
    package static func addons(density: Int) -> BarcodeScanner {
        BarcodeScanner(symbologies: [], density: density, rowsOnly: false, addonsOnly: true)
    }

    private init(symbologies: Set<Symbology>, density: Int, rowsOnly: Bool, addonsOnly: Bool) {
        scanner = zbar_image_scanner_create()
        self.symbologies = symbologies
        self.addonsOnly = addonsOnly
        settings = "ZBar \(symbologies.map(\.rawValue).sorted()) \(density) \(rowsOnly) \(addonsOnly)"
        // Everything off first: ZBar enables most symbologies by default, and an unwanted
        // one (Code 39, Interleaved 2 of 5, DataBar) only adds chances for a false read.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in symbologies {
            zbar_image_scanner_set_config(scanner, symbology.zbarType, ZBAR_CFG_ENABLE, 1)
        }
        if addonsOnly {
            for addon in [ZBAR_EAN2, ZBAR_EAN5] { zbar_image_scanner_set_config(scanner, addon, ZBAR_CFG_ENABLE, 1) }
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
    package func scan(_ image: GreyImage) -> [DecodedSymbol] {
        guard let memo else { return read(image) }
        return memo.value(settings, image) { read(image) }
    }

    private func read(_ image: GreyImage) -> [DecodedSymbol] {
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
                } else if addonsOnly, let addon = DecodedSymbol.addon(current) {
                    found.append(addon)
                }
                symbol = zbar_symbol_next(current)
            }
            return found
        }
    }

    /// The code of `codes` (EAN-13 and UPC reads, in the same pixels) that the add-on at `box` is
    /// printed beside, nil when it is beside none: the nearest code that the add-on lies past one
    /// end of (either end: a photo turned upside down has the add-on first), along the same scan
    /// lines. How far past is not asked: ZBar's box of a code read by a few lines can be a fraction
    /// of its length, and its box of an add-on only the edge where its decoding finished. The
    /// caller looks only near the code.
    package static func owner(ofAddonAt box: PixelBox, among codes: [PixelBox]) -> Int? {
        let owner = codes.indices.min { distance(from: codes[$0], to: box) < distance(from: codes[$1], to: box) }
        guard let owner, distance(from: codes[owner], to: box) < .infinity else { return nil }
        return owner
    }

    /// How far beyond an end of `code` (along its length, across its bars) the add-on at `addon`
    /// lies, in pixels; infinity when it is not beside it: inside the code, or off its scan lines
    /// by more than half the code's length (an add-on's bars are shorter, and the lines that read
    /// each differ).
    private static func distance(from code: PixelBox, to addon: PixelBox) -> Double {
        // Read along rows or columns: an add-on's box is thin along its reading direction (ZBar
        // places it at the edge where each line's decoding finished); a code's may not be.
        let horizontal = addon.width <= addon.height
        let (start, length) = horizontal ? (code.x, code.width) : (code.y, code.height)
        let (addonStart, addonLength) = horizontal ? (addon.x, addon.width) : (addon.y, addon.height)
        let (across, thickness) = horizontal ? (code.y, code.height) : (code.x, code.width)
        let (addonAcross, addonThickness) = horizontal ? (addon.y, addon.height) : (addon.x, addon.width)
        let overlap = min(across + thickness, addonAcross + addonThickness) - max(across, addonAcross)
        let tolerance = max(2, length / 20)
        let after = addonStart >= start + length - tolerance ? addonStart - (start + length) : nil
        let before = addonStart + addonLength <= start + tolerance ? start - (addonStart + addonLength) : nil
        guard overlap >= -length / 2, let gap = after ?? before else { return .infinity }
        return Double(max(0, gap))
    }
}
