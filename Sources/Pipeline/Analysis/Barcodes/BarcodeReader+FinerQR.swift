import Imaging
import Vocabulary

extension BarcodeReader {
    /// How much a QR code read across the overview is enlarged to look for a finer one inside it:
    /// ZBar finds a QR code's finder patterns down to about 3 px a module, and twice that much
    /// covers a code half as fine as the one it read.
    static let finerQRScale = 2

    /// QR codes inside the QR codes the overview read (`found`) that are too fine for ZBar at the
    /// overview's scale, which a photo that gave a code at once is not searched for: a "double QR"
    /// prints a code with modules half as wide inside another one (on ../shared/realphotos,
    /// `qrcode-2-16`: ZBar read the outer code alone, zxing-cpp both). Each QR code's box, widened
    /// by an eighth each way for its edge, is read again enlarged; a QR code there that the
    /// overview did not give counts, as any QR code does (it corrects its own errors). Only the
    /// box: its surroundings too cost four times as much, on every photo with a QR code.
    /// Boxes are in the overview's pixels.
    func finerQRCodes(inside found: [BarcodeReading], in pixels: GreyImage, scanners: Scanners) throws -> [BarcodeReading] {
        let codes = found.filter { $0.symbology == .qr }
        guard !codes.isEmpty else { return [] }
        let scanner = Scanners.zbar(BarcodeScanner(symbologies: [.qr], density: scanners.frameDensity), scanners.memo)
        var finer: [BarcodeReading] = []
        for code in codes {
            let box = code.box
            let around = PixelBox(x: box.x - box.width / 8, y: box.y - box.height / 8,
                                  width: box.width * 5 / 4, height: box.height * 5 / 4).clamped(width: pixels.width, height: pixels.height)
            let source = "ZBar, inside the QR code \(around) ×\(Self.finerQRScale)"
            let region = try pixels.region(around, angle: 0, scale: Double(Self.finerQRScale), smoothRows: 1, memo: memo)
            let readings = trace.readings(of: scanner.scan(region), "overview", source)
            for reading in readings where !(found + finer).contains(where: { $0.productKey == reading.productKey }) {
                trace?.note("overview", source, reading, "kept", because: "a QR code corrects its own errors")
                let inRegion = reading.box.shrunk(by: Self.finerQRScale)
                finer.append(reading.placed(at: inRegion.placed(in: around)))
            }
        }
        return finer
    }
}
