import Imaging
@testable import Pipeline
import Vocabulary
import XCTest
import TestSupport
import Catalog

/// A retail code's read must have light space beside its ends: bars continuing there mean the
/// decoder read a part of a larger code.
final class QuietZoneTests: XCTestCase {
    /// 95 modules of 3 px (an EAN-13's span) of alternating bars, 20 modules of white either side.
    let code = GreyImage(width: 135 * 3, height: 60) { x, _ in
        let module = x / 3 - 20
        return (0..<95).contains(module) && module % 2 == 0 ? 0 : 255
    }

    func reading(_ symbology: Symbology, fromModule first: Int, modules: Int) -> BarcodeReading {
        BarcodeReading(symbology: symbology, text: "", gtin13: nil, quality: 10,
                       box: PixelBox(x: (20 + first) * 3, y: 20, width: modules * 3, height: 20))
    }

    func testIsPartial_readOfTheWholeCode_isNot() {
        XCTAssertFalse(QuietZone.isPartial(reading(.ean13, fromModule: 0, modules: 95), in: code, rules: .fitted))
    }

    func testIsPartial_readOfItsRightHalfOrAUPCEInside_is() {
        // The two ways ZBar misread blurred UPC-As on the real photos.
        XCTAssertTrue(QuietZone.isPartial(reading(.ean13, fromModule: 46, modules: 49), in: code, rules: .fitted))
        XCTAssertTrue(QuietZone.isPartial(reading(.upcE, fromModule: 0, modules: 51), in: code, rules: .fitted))
    }

    func testIsPartial_readOfHalfTheCodeByExemptLines_isNotJudged() {
        // ZBar's box of a code whose halves were decoded on different lines ends at the centre
        // guard: the code's own right half lies beside it. Read by `quietZoneExemptLines` lines,
        // such a read is not judged; by fewer, or with no exemption, it is taken for a part.
        var rules = AcceptanceRules.fitted
        rules.quietZoneExemptLines = 20
        var read = reading(.ean13, fromModule: 0, modules: 49)
        read.quality = 19
        XCTAssertTrue(QuietZone.isPartial(read, in: code, rules: rules))
        read.quality = 20
        XCTAssertFalse(QuietZone.isPartial(read, in: code, rules: rules))
        rules.quietZoneExemptLines = nil
        XCTAssertTrue(QuietZone.isPartial(read, in: code, rules: rules))
    }

    func testIsPartial_codeCutByTheFrame_isNotJudged() {
        // Nothing to test beyond the image's edge: a photo cropped close to the code passes.
        let cropped = code.cropped(to: PixelBox(x: 60, y: 0, width: 95 * 3, height: 60))
        let whole = BarcodeReading(symbology: .ean13, text: "", gtin13: nil, quality: 10,
                                   box: PixelBox(x: 0, y: 20, width: 95 * 3, height: 20))
        XCTAssertFalse(QuietZone.isPartial(whole, in: cropped, rules: .fitted))
    }

    func testIsPartial_codesWithoutAFixedLength_areNotJudged() {
        XCTAssertFalse(QuietZone.isPartial(reading(.code128, fromModule: 46, modules: 49), in: code, rules: .fitted))
    }

    /// The code of `code`, printed on a white label 3 modules wide either side, on a dark field.
    let onDarkField = GreyImage(width: 135 * 3, height: 60) { x, _ in
        let module = x / 3 - 20
        if (0..<95).contains(module) { return module % 2 == 0 ? 0 : 255 }
        return (-3..<98).contains(module) ? 255 : 40
    }

    func testIsPartial_darkFieldBesideANarrowQuietZone_isBarsOnlyWhenAnyDarkCounts() {
        // A label printed close to its code on a dark package: dark beside the ends, but no bars.
        var rules = AcceptanceRules.fitted
        let whole = reading(.ean13, fromModule: 0, modules: 95)
        rules.quietZoneCrossings = 0
        XCTAssertTrue(QuietZone.isPartial(whole, in: onDarkField, rules: rules))
        rules.quietZoneCrossings = 2
        XCTAssertFalse(QuietZone.isPartial(whole, in: onDarkField, rules: rules))
        // Bars and spaces beside the end are bars, whichever the rule.
        XCTAssertTrue(QuietZone.isPartial(reading(.ean13, fromModule: 46, modules: 49), in: code, rules: rules))
    }

    func testIsPartial_barsBesideOneLineOfThree_countOnlyWhenOneLineIsEnough() {
        // Bars beside the end of the top line only (a logo, a stain): partial for one line of three.
        let oneLine = GreyImage(width: 135 * 3, height: 60) { x, y in
            let module = x / 3 - 20
            if (0..<95).contains(module) { return module % 2 == 0 ? 0 : 255 }
            return (95..<101).contains(module) && y < 28 && module % 2 == 1 ? 0 : 255
        }
        var rules = AcceptanceRules.fitted
        rules.quietZoneCrossings = 0
        rules.quietZoneLines = 1
        XCTAssertTrue(QuietZone.isPartial(reading(.ean13, fromModule: 0, modules: 95), in: oneLine, rules: rules))
        rules.quietZoneLines = 2
        XCTAssertFalse(QuietZone.isPartial(reading(.ean13, fromModule: 0, modules: 95), in: oneLine, rules: rules))
    }
}
