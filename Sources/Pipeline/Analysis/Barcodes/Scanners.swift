import Imaging
import Vocabulary

/// The decoders one photo is read with. The ZBar scanners are made for that photo alone: a scanner
/// keeps decoder state from image to image, and scanners pooled across photos made a photo's reads
/// depend, rarely, on which photos a worker had read before it.
struct Scanners {
    /// The whole overview of a shrunk photo is scanned along every `shrunkOverviewDensity`-th row
    /// and column. Its long edge is about 1000 px whatever the photo's size, so a code that reads
    /// there at all spans dozens of lines; a smaller one is left to the locator, whose regions are
    /// read on lines of their own. Every 4th line instead of every 2nd halves ZBar's scan of the
    /// overview, the costliest call of a 12 MP photo's reading (see docs/benchmarks.md).
    static let shrunkOverviewDensity = 4
    /// The whole overview: every `overviewDensity`-th row and column.
    let overview: BarcodeScanner
    let overviewDensity: Int
    /// Copies of the whole frame and 2-D regions: every `frameDensity`-th row and column, 2 in a
    /// shrunk photo's, 1 in a small photo's (close-ups, or photos of a code alone).
    let frame: BarcodeScanner
    let frameDensity: Int
    /// Regions turned upright: linear symbologies, every third row only.
    let rows: BarcodeScanner
    /// The second decoder: the second opinion on ZBar's reads, and a reader where ZBar read nothing (stateless).
    private(set) var zxing: ZXingScanner

    /// What they read on an image before, when the photo is read again (`BarcodeReader.memo`).
    let memo: ReadMemo?

    init(symbologies: Set<Symbology>, shrink: Int, memo: ReadMemo? = nil) {
        overviewDensity = shrink == 1 ? 1 : Self.shrunkOverviewDensity
        frameDensity = shrink == 1 ? 1 : 2
        self.memo = memo
        overview = Self.zbar(BarcodeScanner(symbologies: symbologies, density: overviewDensity), memo)
        frame = Self.zbar(BarcodeScanner(symbologies: symbologies, density: frameDensity), memo)
        rows = Self.zbar(BarcodeScanner(symbologies: symbologies.filter { $0 != .qr }, density: 3, rowsOnly: true), memo)
        zxing = ZXingScanner(symbologies: symbologies)
        zxing.memo = memo
    }

    /// `scanner`, finding what it read before in `memo`.
    static func zbar(_ scanner: BarcodeScanner, _ memo: ReadMemo?) -> BarcodeScanner {
        scanner.memo = memo
        return scanner
    }

    /// The symbols of the whole overview, a linear code's agreeing lines counted as so many lines
    /// `frameDensity` apart: the thresholds in lines (`AcceptanceRules`) are of a code's height
    /// scanned that densely, and a code read by 15 lines 4 px apart spans the height that 30 lines
    /// 2 px apart do.
    func scanOverview(_ pixels: GreyImage) -> [DecodedSymbol] {
        counted(overview.scan(pixels), rowsApart: overviewDensity)
    }

    /// zxing-cpp's symbols of the whole overview, along rows and columns as ZBar reads it, counted
    /// as `scanOverview` counts ZBar's; its lines are pixel rows or columns (`ZXingScanner.scan`).
    func scanOverviewByZXing(_ pixels: GreyImage) -> [DecodedSymbol] {
        counted(zxing.scan(pixels, ways: .turned), rowsApart: 1)
    }

    /// `symbols` whose linear codes' lines were `rowsApart` rows apart, counted `frameDensity` apart.
    private func counted(_ symbols: [DecodedSymbol], rowsApart: Int) -> [DecodedSymbol] {
        symbols.map { symbol in
            var counted = symbol
            if symbol.symbology != .qr { counted.quality = symbol.quality * rowsApart / frameDensity }
            return counted
        }
    }
}

extension GreyImage {
    /// `region(_:angle:scale:smoothRows:)`, found in `memo` when the photo was read before.
    func region(_ box: PixelBox, angle: Double, scale: Double, smoothRows: Int, memo: ReadMemo?) throws(ImageError) -> GreyImage {
        guard let memo else { return try region(box, angle: angle, scale: scale, smoothRows: smoothRows) }
        return try memo.region(of: self, box, angle: angle, scale: scale, smoothRows: smoothRows)
    }
}
