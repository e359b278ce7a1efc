@testable import Imaging
@testable import Pipeline
import XCTest
import TestSupport
import Catalog

final class BarcodeLocatorTests: XCTestCase {
    private func linear(_ x: Int, _ y: Int, angle: Double = 2, strength: Double = 1) -> BarcodeCandidate {
        BarcodeCandidate(box: PixelBox(x: x, y: y, width: 40, height: 60), angle: angle, isLinear: true, strength: strength)
    }

    func testJoined_halvesSideBySideWithTheSameBars_becomeOneCandidate() {
        let joined = BarcodeLocator.joined([linear(100, 50, strength: 2), linear(150, 55, angle: -3)], gap: 16)
        XCTAssertEqual(joined, [BarcodeCandidate(box: PixelBox(x: 100, y: 50, width: 90, height: 65), angle: 2,
                                                 isLinear: true, strength: 2)])
    }

    func testJoined_barsAtAnAngleOrFarApartOr2D_stayApart() {
        XCTAssertEqual(BarcodeLocator.joined([linear(100, 50), linear(150, 50, angle: 30)], gap: 16), [])
        XCTAssertEqual(BarcodeLocator.joined([linear(100, 50), linear(200, 50)], gap: 16), [])
        var square = linear(150, 50)
        square.isLinear = false
        XCTAssertEqual(BarcodeLocator.joined([linear(100, 50), square], gap: 16), [])
    }

    func testJoined_anglesEitherSideOf90_areTheSameBars() {
        XCTAssertEqual(BarcodeLocator.joined([linear(100, 50, angle: 89), linear(150, 50, angle: -89)], gap: 16).count, 1)
    }

    func testCandidates_codeBetweenLinesOfPrint_isFoundAsBarsTurnedUpright() throws {
        // An EAN-13 at 2 px a module, 80 px tall, with rings (print whose strokes point every way)
        // right above and below it: the strong cells make one region, two thirds of it not bars.
        let code = TemplateReaderTests.drawn("5901234123457", module: 2, blur: 0.5)
        let (top, codeHeight) = (110, 80)
        let image = GreyImage(width: code.width, height: 300) { x, y in
            if y >= top && y < top + codeHeight { return code.pixels[(y - top) % code.height * code.width + x] }
            let (dx, dy) = (Double(x % 9) - 4, Double(y % 9) - 4)
            return abs((dx * dx + dy * dy).squareRoot() - 3) < 0.9 ? 40 : 230
        }
        let bars = BarcodeLocator().candidates(in: image).filter(\.isLinear)
        let centre = PixelBox(x: code.width / 2 - 5, y: top + codeHeight / 2 - 5, width: 10, height: 10)
        let found = try XCTUnwrap(bars.first { $0.box.covers(centre) }, "\(BarcodeLocator().candidates(in: image))")
        XCTAssertEqual(min(abs(found.angle), 180 - abs(found.angle)), 0, accuracy: 5, "bars upright as drawn")
        XCTAssertLessThan(found.box.height, 200, "the bars, not the whole region with the print")
    }

    func testCandidates_codeWhoseBarsAreWiderThanHalfACell_isFoundWhole() {
        // An EAN-13 at 3 px a module in an image 345 px wide: cells of 8 px, so the cells on the
        // edges of its wider bars and spaces hold one edge each. Those are not candidates, and their
        // columns cut the code into parts; its whole extent joins them.
        let code = TemplateReaderTests.drawn("5901234123457", module: 3, blur: 0.3)
        let image = GreyImage(width: code.width, height: 260) { x, y in
            y < 30 || y >= 230 ? 230 : code.pixels[y % code.height * code.width + x]
        }
        let (first, last) = (30, 30 + 95 * 3)  // the first bar's edge and the last's, after 10 modules of quiet zone
        let spansCode = { (found: [BarcodeCandidate]) in
            found.contains { $0.isLinear && $0.box.x <= first && $0.box.x + $0.box.width >= last }
        }
        var parts = BarcodeLocator()
        parts.spansSingleEdges = false
        XCTAssertFalse(spansCode(parts.candidates(in: image)), "the parts alone: \(parts.candidates(in: image))")
        XCTAssertTrue(spansCode(BarcodeLocator().candidates(in: image)), "\(BarcodeLocator().candidates(in: image))")
    }

    func testCovers_sameRegionFoundAgain_butNotALargerOne() {
        let tried = PixelBox(x: 100, y: 100, width: 100, height: 100)
        XCTAssertTrue(tried.covers(PixelBox(x: 110, y: 105, width: 90, height: 90)))
        XCTAssertFalse(tried.covers(PixelBox(x: 90, y: 90, width: 300, height: 120)), "a whole code around a tried half")
        XCTAssertFalse(tried.covers(PixelBox(x: 300, y: 100, width: 50, height: 50)))
    }
}
