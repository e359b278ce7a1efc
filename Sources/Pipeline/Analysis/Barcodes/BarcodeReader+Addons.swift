import Catalog
import Imaging

extension BarcodeReader {
    /// The photo's codes with the 2- or 5-digit add-on printed beside each EAN-13 or UPC code
    /// (a magazine's issue, a book's price), kept apart from the code.
    ///
    /// Read after the codes are decided, by a scanner of add-ons alone, in the code's surroundings
    /// widened by its length at either end (an add-on ends within two thirds of it), as they
    /// are and enlarged: the codes' own scanners leave add-ons off, since with them on ZBar lost
    /// codes it reads without. An add-on counts for the code it is printed beside
    /// (`BarcodeScanner.owner(ofAddonAt:among:)`). Photos without a retail code cost nothing.
    /// - Parameter shrink: how many full-resolution pixels one pixel of `pixels` spans.
    func withAddons(_ barcodes: PhotoBarcodes, in pixels: GreyImage, shrink: Int, scanners: Scanners) -> PhotoBarcodes {
        let retail: Set<Symbology> = [.ean13, .upcA, .upcE]
        guard barcodes.confirmed.contains(where: { retail.contains($0.symbology) }) else { return barcodes }
        // Every line of a small photo (a close-up, cheap), every second of a large one: an add-on's
        // bars are nearly as tall as its code's.
        let small = pixels.width * pixels.height <= Self.secondLookPixels
        let scanner = BarcodeScanner.addons(density: small ? 1 : 2)
        var barcodes = barcodes
        for index in barcodes.confirmed.indices where retail.contains(barcodes.confirmed[index].symbology) {
            let reading = barcodes.confirmed[index]
            let code = PixelBox(x: reading.box.x / shrink, y: reading.box.y / shrink,
                                width: max(1, reading.box.width / shrink), height: max(1, reading.box.height / shrink))
            // An add-on ends within two thirds of its code's length past the code (its reading
            // direction is not known here: either axis). A small photo is a close-up of its code:
            // all of it (a code read from a prepared copy may be placed anywhere in it).
            let length = max(code.width, code.height), reach = 2 * length / 3 + 8
            let area = small ? PixelBox(x: 0, y: 0, width: pixels.width, height: pixels.height)
                : PixelBox(x: code.x - reach, y: code.y - reach, width: code.width + 2 * reach, height: code.height + 2 * reach)
                    .clamped(width: pixels.width, height: pixels.height)
            guard area.width > 0, area.height > 0 else { continue }
            // Enlarged where a module is under 2 px (95 modules to the code), or the photo is small
            // (a close-up: cheap, and a code read from a prepared copy is placed at the whole
            // frame, which only a read of the enlarged copy places again); padded only at the
            // frame's edge, where an add-on needs a quiet zone (white padding elsewhere cost ZBar one
            // it read unpadded, beside a dark background: ean13-extension-1-2).
            let atEdge = area.x == 0 || area.y == 0 || area.x + area.width == pixels.width || area.y + area.height == pixels.height
            let copies = [(1.0, 0), (1.0, 16), (2.0, 0), (2.0, 16)].filter { scale, margin in
                (scale == 1 || length < 190 || small) && (margin == 0 || atEdge)
            }
            for (scale, margin) in copies {
                guard let region = scale == 1 ? pixels.cropped(to: area) : try? pixels.region(area, angle: 0, scale: scale, smoothRows: 1)
                else { continue }
                let copy = margin == 0 ? region : region.padded(by: margin)
                let addons = scanner.scan(copy).filter(\.isAddon)
                guard !addons.isEmpty else { continue }
                // The code's place in the copy: where its scanner reads it there (a read of a region
                // is placed at the region), else where the photo's read put it.
                let reread = scanners.frame.scan(copy).compactMap(GTIN.reading(from:))
                    .filter { $0.productKey == reading.productKey }.map(\.box)
                let codes = reread.isEmpty ? [PixelBox(x: Int(Double(code.x - area.x) * scale) + margin,
                                                       y: Int(Double(code.y - area.y) * scale) + margin,
                                                       width: Int(Double(code.width) * scale),
                                                       height: Int(Double(code.height) * scale))] : reread
                let addon = addons.first { BarcodeScanner.owner(ofAddonAt: $0.box, among: codes) != nil }
                let source = "ZBar (add-ons only), the code's surroundings ×\(Int(scale))\(margin > 0 ? ", padded" : "")"
                for other in addons where other != addon {
                    trace?.note("add-on", source, reading, "dropped", because: "the add-on \(other.text) read there (\(other.box)) "
                        + "is not beside the code (\(codes.map(\.description).joined(separator: ", ")))")
                }
                guard let addon else { continue }
                barcodes.confirmed[index].addon = addon.text
                trace?.note("add-on", source, barcodes.confirmed[index], "kept", because: "the add-on \(addon.text) is printed beside it")
                break
            }
        }
        return barcodes
    }
}
