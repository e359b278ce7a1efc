import Imaging
@testable import Pipeline
import TestSupport
import XCTest

final class BarcodeReaderTests: XCTestCase {
    func testMaximumLightness_linesOfTextOnWhite_areNotWorthAFullResolutionLook() {
        // Three lines of "letters" (2-px strokes every 5 px) across a 60×40 patch: 12 % ink.
        let text = GreyImage(width: 60, height: 40) { x, y in [8, 9, 20, 21, 32, 33].contains(y) && x % 5 < 3 ? 0 : 250 }
        XCTAssertGreaterThan(text.lightness(of: PixelBox(x: 0, y: 0, width: 60, height: 40)), BarcodeReader.maximumLightness)
    }
}
