import Imaging
import Vocabulary

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
        let scanner = Scanners.zbar(BarcodeScanner.addons(density: small ? 1 : 2), scanners.memo)
        var barcodes = barcodes
        for index in barcodes.confirmed.indices where retail.contains(barcodes.confirmed[index].symbology) {
            let reading = barcodes.confirmed[index]
            let code = reading.box.shrunk(by: shrink)
            // An add-on ends within two thirds of its code's length past the code (its reading
            // direction is not known here: either axis). A small photo is a close-up of its code:
            // all of it (a code read from a prepared copy may be placed anywhere in it).
            let length = max(code.width, code.height), reach = 2 * length / 3 + 8
            let area = small ? PixelBox(x: 0, y: 0, width: pixels.width, height: pixels.height)
                : code.grown(by: reach).clamped(width: pixels.width, height: pixels.height)
            guard area.width > 0, area.height > 0 else { continue }
            // As they are, then enlarged ×2; padded only at the frame's edge, where an add-on needs
            // a quiet zone (white padding elsewhere cost ZBar one it read unpadded, beside a dark
            // background: ean13-extension-1-2).
            let atEdge = area.x == 0 || area.y == 0 || area.x + area.width == pixels.width || area.y + area.height == pixels.height
            let copies = [(1.0, 0), (1.0, 16), (2.0, 0), (2.0, 16)].filter { $0.1 == 0 || atEdge }
            // An add-on counts when copies at both scales read it: an EAN-2 checks little (its
            // parity gives its value modulo 4), and ZBar made ones of print beside a code, at one
            // scale (5021047102439_2, 3760129920548_1). So the enlarged copies, which cost four
            // times the pixels, are read only to confirm what an unenlarged one read: alone they
            // could decide nothing.
            var scales: [String: Set<Double>] = [:]
            for (scale, margin) in copies where scale == 1 || !scales.isEmpty {
                guard let region = scale == 1 ? pixels.cropped(to: area) : try? pixels.region(area, angle: 0, scale: scale, smoothRows: 1, memo: memo)
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
                let source = "ZBar (add-ons only), the code's surroundings ×\(Int(scale))\(margin > 0 ? ", padded" : "")"
                // Where the code was not read again and its box is the whole copy (it was read from
                // a prepared copy of a close-up, placed at the frame), its place is not known: an
                // add-on read there is beside it as far as can be told.
                let placeUnknown = reread.isEmpty && code.width * code.height >= area.width * area.height * 9 / 10
                for addon in addons {
                    guard placeUnknown || BarcodeScanner.owner(ofAddonAt: addon.box, among: codes) != nil else {
                        trace?.note("add-on", source, reading, "dropped", because: "the add-on \(addon.text) read there (\(addon.box)) "
                            + "is not beside the code (\(codes.map(\.description).joined(separator: ", ")))")
                        continue
                    }
                    scales[addon.text, default: []].insert(scale)
                    trace?.note("add-on", source, reading, "read", because: "the add-on \(addon.text), beside the code")
                }
                if let confirmed = scales.first(where: { $0.value.count == 2 })?.key {
                    barcodes.confirmed[index].addon = confirmed
                    trace?.note("add-on", "ZBar (add-ons only)", barcodes.confirmed[index], "kept",
                                because: "the add-on \(confirmed) read beside it at both scales")
                    break
                }
            }
            for (text, _) in scales where barcodes.confirmed[index].addon == nil {
                trace?.note("add-on", "ZBar (add-ons only)", reading, "dropped", because: "the add-on \(text) read at one scale only")
            }
        }
        return barcodes
    }
}
