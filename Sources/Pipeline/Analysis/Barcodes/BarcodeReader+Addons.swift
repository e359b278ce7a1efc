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
        let scanner = BarcodeScanner.addons()
        var barcodes = barcodes
        for index in barcodes.confirmed.indices where retail.contains(barcodes.confirmed[index].symbology) {
            let reading = barcodes.confirmed[index]
            let code = PixelBox(x: reading.box.x / shrink, y: reading.box.y / shrink,
                                width: max(1, reading.box.width / shrink), height: max(1, reading.box.height / shrink))
            let length = max(code.width, code.height)
            let area = Self.surroundings(of: PixelBox(x: code.x - length, y: code.y - length, width: code.width + 2 * length,
                                                      height: code.height + 2 * length), in: pixels)
            guard area.width > 0, area.height > 0 else { continue }
            // Padded as well: an add-on up against the frame's edge needs a quiet zone; but white
            // padding beside a dark background cost ZBar one (ean13-extension-1-2) it read unpadded.
            for (scale, margin) in [(1.0, 0), (1.0, 16), (2.0, 0), (2.0, 16)] {
                guard let region = try? pixels.region(area, angle: 0, scale: scale, smoothRows: 1) else { continue }
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
