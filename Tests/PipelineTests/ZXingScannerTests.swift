import Catalog
@testable import Imaging
import XCTest

/// zxing-cpp, the second decoder, called directly.
final class ZXingScannerTests: XCTestCase {
    func testScan_sameCodeTwiceSideBySide_readsBothAndDoesNotAbort() {
        // Two packs of one product side by side: zxing-cpp 1.4.0 compares the two reads of one code
        // with an assertion that aborts the process (Debian builds it with assertions on);
        // Sources/CZXingShim/ResultEquality.cpp replaces that comparison. Without it this test
        // does not fail, it takes the whole test process down.
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

    func testScan_sameCodeTwiceOneAboveTheOther_isOneSymbol() {
        // The same rows' worth of bars stacked: one symbol, as zxing-cpp 1.4.0 merges it itself.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.2)
        let tall = GreyImage(width: code.width, height: 2 * code.height) { x, y in code.pixels[(y % code.height) * code.width + x] }
        XCTAssertEqual(ZXingScanner(symbologies: [.ean13]).scan(tall).map(\.text), ["5901234123457"])
    }
}
