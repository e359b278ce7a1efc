import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

final class BarcodeReaderTests: XCTestCase {
    func testMaximumLightness_linesOfTextOnWhite_areNotWorthAFullResolutionLook() {
        // Three lines of "letters" (2-px strokes every 5 px) across a 60×40 patch: 12 % ink.
        let text = GreyImage(width: 60, height: 40) { x, y in [8, 9, 20, 21, 32, 33].contains(y) && x % 5 < 3 ? 0 : 250 }
        XCTAssertGreaterThan(text.lightness(of: PixelBox(x: 0, y: 0, width: 60, height: 40)), BarcodeReader.maximumLightness)
    }

    func testRead_photoOfExtremeShape_isReadWithCopiesOfBoundedSize() throws {
        // 9×30000: under 640×480 pixels, so the second look pads and enlarges the whole frame, by a
        // tenth of its long side on every side. Its ×2 copy would have been 12018×72000 pixels:
        // 865 MB taken, then refused by the sampler, and the valid photo quarantined as corrupt.
        let strip = GreyImage(width: 9, height: 30000) { _, y in y % 7 < 3 ? 40 : 220 }
        for copy in try BarcodeReader.copies(of: strip, candidates: []) {
            let image = try copy.image()
            XCTAssertLessThanOrEqual(image.width * image.height, BarcodeReader.maximumCopyPixels, copy.view)
        }
        XCTAssertNoThrow(try BarcodeReader(symbologies: Set(Symbology.allCases)).read(overview: strip, shrink: 1) { _ in
            throw ImageError.undecodable("read whole")
        })
    }
}

extension BarcodeReaderTests {
    /// A 640×480 frame, light but for bars 3 px apart in `bars` (none when nil).
    private func frame(bars: PixelBox?) -> GreyImage {
        GreyImage(width: 640, height: 480) { x, y in
            guard let bars, (bars.x..<(bars.x + bars.width)).contains(x), (bars.y..<(bars.y + bars.height)).contains(y)
            else { return 235 }
            return x % 6 < 3 ? 20 : 235
        }
    }

    func testCopies_ofASmallFrameWithoutBars_areNotSharpened() throws {
        // A front or a label: no region of bars, no weak read. Its whole frame sharpened at twice
        // its size was the costliest copy of a 640×480 photo, and never gave a code.
        let views = try BarcodeReader.copies(of: frame(bars: nil), candidates: []).map(\.view)
        XCTAssertEqual(views, ["×1", "×1.5", "inverted"])
        XCTAssertNil(BarcodeReader.barsSurroundings(in: frame(bars: nil), candidates: [], weak: [], margin: 64))
    }

    func testCopies_ofASmallFrameWithBars_sharpenTheBandAlongTheirLinesOnly() throws {
        let box = PixelBox(x: 200, y: 100, width: 100, height: 40)
        let pixels = frame(bars: box)
        let candidate = BarcodeCandidate(box: box, angle: 0, isLinear: true, strength: 1)
        let copies = try BarcodeReader.copies(of: pixels, candidates: [candidate])
        let sharpened = try XCTUnwrap(copies.first { $0.view == "×2.0" })
        XCTAssertTrue(sharpened.withZBar)
        // The band: the padded frame's whole width (640 + 2 × 64), the bars' height and 100 px (the
        // region's length) above and below, all twice as large.
        let image = try sharpened.image()
        XCTAssertEqual([image.width, image.height], [2 * 768, 2 * 240])
        // And a read's box in it maps back onto the bars.
        XCTAssertEqual(sharpened.place(PixelBox(x: 528, y: 200, width: 200, height: 80)), box)
    }

    func testBarsSurroundings_ofAReadStandingUp_isTheBandDownTheFrame_joinedWithTheRegions() {
        let pixels = frame(bars: nil)
        let standing = BarcodeReading(symbology: .ean13, text: "", gtin13: nil, quality: 2,
                                      box: PixelBox(x: 300, y: 50, width: 20, height: 200))
        XCTAssertEqual(BarcodeReader.barsSurroundings(in: pixels, candidates: [], weak: [standing], margin: 64),
                       PixelBox(x: 164, y: 0, width: 420, height: 608))
        // A region of light print (a line of text on white) is no bars: the band stays as it was.
        let text = BarcodeCandidate(box: PixelBox(x: 20, y: 400, width: 80, height: 30), angle: 0, isLinear: true, strength: 1)
        XCTAssertEqual(BarcodeReader.barsSurroundings(in: pixels, candidates: [text], weak: [standing], margin: 64),
                       PixelBox(x: 164, y: 0, width: 420, height: 608))
    }
}

final class SecondLookTests: XCTestCase {
    /// The UPC-E 01234565, 3 px a module, 40 px tall, cut at the frame's left edge one module into
    /// its start guard: ZBar reads it nowhere, padded or not; zxing-cpp reads it on all 40 rows.
    private let cutCode: GreyImage = {
        let code = TemplateReaderTests.drawn(modules: TemplateReaderTests.upcE01234565, module: 3, blur: 0.2)
        return code.cropped(to: PixelBox(x: 33, y: 0, width: code.width - 33, height: code.height))
    }()

    /// The second look's evidence on the frame alone, as where the locator finds no region.
    private func secondLook(with rules: AcceptanceRules, trace: ReadTrace? = nil) throws -> Evidence {
        try BarcodeReader(symbologies: Set(Symbology.allCases), rules: rules, trace: trace)
            .secondLook(overview: cutCode, candidates: [], weak: [], scanners: Scanners(symbologies: Set(Symbology.allCases), shrink: 1))
    }

    func testSecondLook_smallPhotoZXingReadsByConfirmedLinesAndZBarNot_countsAlone() throws {
        XCTAssertEqual(BarcodeScanner(symbologies: [.upcE], density: 1).scan(cutCode.padded(by: 20)), [])
        XCTAssertEqual(ZXingScanner(symbologies: [.upcE]).scan(cutCode).map(\.quality), [40])
        // As ZBar's read of the overview by `confirmedLines` does: the template reader does not contradict it.
        XCTAssertEqual(try secondLook(with: .fitted).accepted.map(\.text), ["012345000065"])
        // By fewer lines than the rules ask for, it is one read of one decoder: it counts only as
        // the template reader confirms it, its UPC-E layout fitting the code's patterns everywhere.
        var strict = AcceptanceRules.fitted
        strict.confirmedLines = 41
        let trace = ReadTrace()
        XCTAssertEqual(try secondLook(with: strict, trace: trace).accepted.map(\.text), ["012345000065"])
        XCTAssertEqual(trace.events.filter { $0.outcome == "confirmed" }.map(\.source), ["template reader"])
        // The photo as read: the locator finds the code's bars (`BarcodeLocator.extent`), and zxing-cpp's
        // read of that region is a second view.
        let read = try BarcodeReader(symbologies: Set(Symbology.allCases), rules: strict)
            .read(overview: cutCode, shrink: 1, fullResolution: { _ in throw ImageError.undecodable("not asked for") })
        XCTAssertEqual(read.map(\.text), ["012345000065"])
    }
}

final class ScannersTests: XCTestCase {
    /// A sample photo's grey pixels, with its EAN-13 (samples/expected.json).
    private func sample() throws -> GreyImage {
        let path = IngestHarness.packageRoot.appendingPathComponent("samples/single-product/IMG_0001.jpg").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(bytes).overview
    }

    func testScanOverview_shrunkPhoto_scansEveryFourthLineAndCountsEachAsTwo() throws {
        let pixels = try sample()
        let scanners = Scanners(symbologies: [.ean13], shrink: 4)
        XCTAssertEqual(scanners.overviewDensity, 4)
        XCTAssertEqual(scanners.frameDensity, 2)
        let sparse = BarcodeScanner(symbologies: [.ean13], density: 4).scan(pixels)
        let counted = scanners.scanOverview(pixels)
        XCTAssertEqual(counted.map(\.text), ["5902255046404"])
        XCTAssertEqual(counted.map(\.quality), sparse.map { $0.quality * 2 })
        // Counted so, the lines are about those of the scan every second line: the same height of code.
        let dense = try XCTUnwrap(scanners.frame.scan(pixels).first)
        XCTAssertEqual(Double(counted[0].quality), Double(dense.quality), accuracy: 0.25 * Double(dense.quality))
    }

    func testScanOverview_smallPhoto_scansEveryLineAsTheFrameIs() throws {
        let pixels = try sample()
        let scanners = Scanners(symbologies: [.ean13], shrink: 1)
        XCTAssertEqual(scanners.overviewDensity, 1)
        XCTAssertEqual(scanners.scanOverview(pixels), scanners.frame.scan(pixels))
    }
}

final class StandsTests: XCTestCase {
    /// An EAN-13 printed with a wrong check digit (7284067244275: its 13th digit should be 7), 2 px
    /// a module: no decoder reads it, as printed.
    private let misprint = TemplateReaderTests.drawn("7284067244275", module: 2, blur: 0.5)

    /// What `stands` says of a read of `code` by 142 lines whose box spans the code's right half
    /// only, as ZBar's box of a read spans where its lines finished decoding.
    private func stands(_ code: String, templateExemptLines: Int?) throws -> Bool {
        var rules = AcceptanceRules.fitted
        rules.templateExemptLines = templateExemptLines
        let half = PixelBox(x: misprint.width / 2, y: 0, width: misprint.width / 2 - 20, height: misprint.height)
        let reading = try XCTUnwrap(TemplateReader.reading(code, lines: 142, box: half))
        return try BarcodeReader(symbologies: Set(Symbology.allCases), rules: rules)
            .stands(reading, in: misprint, scanners: Scanners(symbologies: Set(Symbology.allCases), shrink: 1)).0
    }

    func testStands_wellReadCodeNoSecondDecoderReads_judgedByTheTemplateReaderOnTheWholeCode() throws {
        // A generated crop of this kind (bench/crops.py, seed 1, photo-285) gave ZBar 7284067244215
        // on 142 lines: the 7 in the right half read as a 1, the check digit then right.
        XCTAssertEqual(ZXingScanner(symbologies: [.ean13]).scan(misprint.padded(by: 16)), [])
        XCTAssertFalse(try stands("7284067244215", templateExemptLines: nil),
                       "the template reader fits a 7 there, on the whole code beyond ZBar's box")
        // Exempt from that verdict by its lines, it counts: zxing-cpp contradicts nothing.
        XCTAssertTrue(try stands("7284067244215", templateExemptLines: 20))
    }

    func testStands_wellReadRightCodeNoSecondDecoderReads_counts() throws {
        // The same drawing, its check digit right: zxing-cpp does not read it in the read's
        // surroundings either. The template reader fits its digit patterns on the whole code; on
        // the read's surroundings (`surroundings(of:in:)`), which cut its left half off, it fits
        // other patterns better.
        let code = TemplateReaderTests.drawn("5901234123457", module: 2, blur: 0.5)
        let reading = try XCTUnwrap(TemplateReader.reading("5901234123457", lines: 142,
                                                           box: PixelBox(x: code.width / 2, y: 0, width: code.width / 2 - 20, height: code.height)))
        var rules = AcceptanceRules.fitted
        rules.templateExemptLines = nil
        let (counts, because) = try BarcodeReader(symbologies: Set(Symbology.allCases), rules: rules)
            .stands(reading, in: code, scanners: Scanners(symbologies: Set(Symbology.allCases), shrink: 1))
        XCTAssertTrue(counts, because)
    }
}
