@testable import Imaging
import XCTest
import Vocabulary
import TestSupport
import Catalog

/// zxing-cpp, the second decoder, called directly.
final class ZXingScannerTests: XCTestCase {
    func testScan_sameCodeTwiceSideBySide_readsBothAndDoesNotAbort() {
        // Two packs of one product side by side: Debian's zxing-cpp 1.4.0 compared the two reads
        // of one code with an assertion that aborted the whole test process (Debian builds it with
        // assertions on). zxing-cpp 3.1, as scripts/setup builds it, reads both.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.2)
        let gap = 40
        let twice = GreyImage(width: 2 * code.width + gap, height: code.height) { x, y in
            x < code.width ? code.pixels[y * code.width + x]
                : x < code.width + gap ? 230 : code.pixels[y * code.width + x - code.width - gap]
        }
        let symbols = ZXingScanner(symbologies: [.ean13]).scan(twice)
        XCTAssertEqual(symbols.map(\.text), ["5901234123457", "5901234123457"])
        XCTAssertEqual(Set(symbols.map(\.box.x)).count, 2, "two symbols, at two places: \(symbols.map(\.box))")
    }

    func testScan_linearCode_qualityIsThePixelRowsItsLinesStandFor_whateverTheImageHeight() throws {
        // zxing-cpp counts 120 rows of bars as 120 lines in an image 400 rows high, but as about
        // 62 at 1100 rows (every 2nd row, and the two beside the first), 44 at 1600 and 34 at 2100:
        // counted in pixel rows, as ZBar's lines are at density 1, each is about 120.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.2)
        let scanner = ZXingScanner(symbologies: [.ean13])
        for height in [400, 1100, 1600, 2100, 2600] {
            let top = (height - 120) / 2
            let framed = GreyImage(width: code.width, height: height) { x, y in
                (top ..< top + 120).contains(y) ? code.pixels[(y - top) % code.height * code.width + x] : 230
            }
            let symbol = try XCTUnwrap(scanner.scan(framed).first, "\(height) rows")
            XCTAssertEqual(symbol.text, "5901234123457")
            XCTAssertTrue((110 ... 125).contains(symbol.quality), "\(symbol.quality) lines for 120 rows of bars in \(height)")
        }
    }

    func testScan_codeLyingAcrossTheRows_isReadTurnedWithItsColumnsCountedAsLines() throws {
        // A photo stored lying (a phone held upright) has its bars across the rows. Asked to look
        // turned, zxing-cpp reads down the columns too, and the lines count as pixel columns, as
        // rows do upright: 120 columns of bars are about 120 lines whatever the image's width.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.2)
        let scanner = ZXingScanner(symbologies: [.ean13])
        for width in [400, 1600] {
            let left = (width - 120) / 2
            let lying = GreyImage(width: width, height: code.width) { x, y in
                (left ..< left + 120).contains(x) ? code.pixels[(x - left) % code.height * code.width + y] : 230
            }
            XCTAssertEqual(scanner.scan(lying).map(\.text), [], "along rows only, the bars lie along them")
            let symbol = try XCTUnwrap(scanner.scan(lying, ways: .turned).first, "\(width) columns")
            XCTAssertEqual(symbol.text, "5901234123457")
            XCTAssertTrue((110 ... 125).contains(symbol.quality), "\(symbol.quality) lines for 120 columns of bars in \(width)")
        }
    }

    func testScan_upcE_givesTheEightDigitsPrinted() throws {
        // zxing-cpp 3 gives a UPC-E as the GTIN-13 it stands for (0012345000065 for 01234565); the
        // rest of ingest checks and expands the 8 digits, as ZBar gives them.
        let code = TemplateReaderTests.drawn(modules: TemplateReaderTests.upcE01234565, module: 3, blur: 0.2)
        let symbol = try XCTUnwrap(ZXingScanner(symbologies: [.upcE]).scan(code).first)
        XCTAssertEqual(symbol.symbology, .upcE)
        XCTAssertEqual(symbol.text, "01234565")
    }

    func testScan_upcAWithoutEAN13_givesTheTwelveDigitsPrinted() throws {
        // Asked for UPC-A alone, zxing-cpp 3 gives its GTIN-13 (a leading 0) as a UPC-A.
        let code = TemplateReaderTests.drawn("0012345678905", module: 3, blur: 0.2)
        let symbol = try XCTUnwrap(ZXingScanner(symbologies: [.upcA]).scan(code).first)
        XCTAssertEqual(symbol.symbology, .upcA)
        XCTAssertEqual(symbol.text, "012345678905")
    }

    func testScan_sameCodeTwiceOneAboveTheOther_isOneSymbol() {
        // The same rows' worth of bars stacked: one symbol, as zxing-cpp merges it itself.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.2)
        let tall = GreyImage(width: code.width, height: 2 * code.height) { x, y in code.pixels[(y % code.height) * code.width + x] }
        XCTAssertEqual(ZXingScanner(symbologies: [.ean13]).scan(tall).map(\.text), ["5901234123457"])
    }
}
