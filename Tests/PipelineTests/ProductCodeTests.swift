@testable import Pipeline
import Vocabulary
import XCTest

final class ProductCodeTests: XCTestCase {
    func testKeys_everyFormOfOneUPCA_meetOnOneKey() {
        for code in ["955812235532", "0955812235532", "00955812235532", "0000000955812235532"] {
            XCTAssertEqual(ProductCode.keys(for: code), ["00955812235532"], code)
        }
    }

    func testKeys_ean13AndGTIN14_arePaddedOnly() {
        XCTAssertEqual(ProductCode.keys(for: "5902255046404"), ["05902255046404"])
        XCTAssertEqual(ProductCode.keys(for: "15902255046401"), ["15902255046401"])
    }

    func testKeys_eightDigitsValidAsEAN8Only_isTheEAN8() {
        XCTAssertEqual(ProductCode.keys(for: "25031614"), ["00000025031614"])
        XCTAssertEqual(ProductCode.keys(for: "0000025031614"), ["00000025031614"], "as a capture's GTIN-13 holds it")
    }

    func testKeys_eightDigitsValidAsUPCEOnly_isTheUPCAExpansion() {
        // 04252614 fails the EAN-8 check digit; as a UPC-E it is UPC-A 042100005264.
        XCTAssertEqual(ProductCode.keys(for: "04252614"), ["00042100005264"])
        XCTAssertEqual(ProductCode.keys(for: "042100005264"), ["00042100005264"], "the capture's expansion finds it")
    }

    func testKeys_eightDigitsValidBothWays_hasBothKeysEAN8First() {
        XCTAssertEqual(ProductCode.keys(for: "01234565"), ["00000001234565", "00012345000065"])
        XCTAssertEqual(ProductCode.keys(for: "1234565"), ["00000001234565", "00012345000065"], "a leading zero dropped")
    }

    func testKeys_notAGTIN_isNil() {
        for code in ["", "https://example.org/p/7sgq", "ABC-123", "0000", "123456789012345", "4006381 333931", "٤٠٠٦"] {
            XCTAssertNil(ProductCode.keys(for: code), code)
        }
    }

    func testKeys_ofEveryCaptureForm_matchTheCapturesGTIN13Key() {
        // A capture is looked up by "0" + its GTIN-13 (GTIN.reading); each form OFF may print must reach it.
        let captures: [(gtin13: String, offForms: [String])] = [
            ("0955812235532", ["955812235532", "0955812235532"]),        // UPC-A
            ("0000025031614", ["25031614", "00025031614"]),              // EAN-8
            ("0042100005264", ["04252614", "042100005264"]),             // UPC-E (expanded by the reader)
            ("0012345000065", ["01234565"]),                             // UPC-E that is also a valid EAN-8
            ("5902255046404", ["5902255046404", "05902255046404"]),      // EAN-13
        ]
        for (gtin13, forms) in captures {
            for form in forms {
                XCTAssertTrue(ProductCode.keys(for: form)?.contains("0" + gtin13) == true, "\(form) → \(gtin13)")
            }
        }
    }
}
