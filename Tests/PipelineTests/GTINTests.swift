@testable import Imaging
@testable import Pipeline
import Vocabulary
import XCTest

// Expected values were computed independently with Python, from the GS1 tables rather than
// from the code under test:
//   check digit = (10 - Σ digit·weight mod 10) mod 10, weights 3,1,3,… from the right;
//   UPC-E n·abcdef·k → UPC-A n·(manufacturer)(item)·check, by its last digit f:
//   0–2 → ab f00 · 00cde,  3 → abc00 · 000de,  4 → abcd0 · 0000e,  5–9 → abcde · 0000f.
final class GTINTests: XCTestCase {
    // MARK: Check digits

    func testNamesTradeItem_membersPrefixesAndBooks_notShopCodesCouponsOrUnassignedRanges() {
        for code in ["4006381333931", "0036000291452", "5000112637922", "9780143007234", "9791032300824", "9771234567003",
                     "1000000000009", "3017620422003", "0000040170725"] {
            XCTAssertTrue(GTIN.namesTradeItem(code), code)
        }
        for code in ["1920193006001", "1910000000001", "1400000000007", "2012345000001", "2991234000004", "0201234000006",
                     "0412345000001", "0512345000008", "9800000000007", "9841234567898", "9901234567899"] {
            XCTAssertFalse(GTIN.namesTradeItem(code), code)
        }
        XCTAssertFalse(GTIN.namesTradeItem("978014300723"), "twelve digits are no GTIN-13")
        XCTAssertFalse(GTIN.namesTradeItem("97801430072x4"))
    }

    func testCheckDigit_knownRetailCodes_matchPrintedDigit() {
        XCTAssertEqual(GTIN.checkDigit(for: "400638133393"), "1") // EAN-13 4006381333931
        XCTAssertEqual(GTIN.checkDigit(for: "590123412345"), "7") // EAN-13 5901234123457
        XCTAssertEqual(GTIN.checkDigit(for: "03600029145"), "2") // UPC-A 036000291452
        XCTAssertEqual(GTIN.checkDigit(for: "9638507"), "4") // EAN-8 96385074
    }

    func testCheckDigit_whenSumIsMultipleOfTen_isZero() {
        // 0·3 + … = 0 → 0, and 5·3 + 5 = 20 → 0: the outer mod 10 matters.
        XCTAssertEqual(GTIN.checkDigit(for: "000000000000"), "0")
        XCTAssertEqual(GTIN.checkDigit(for: "55"), "0")
    }

    func testCheckDigit_nonDigitsOrEmpty_isNil() {
        XCTAssertNil(GTIN.checkDigit(for: ""))
        XCTAssertNil(GTIN.checkDigit(for: "40063813339a"))
        XCTAssertNil(GTIN.checkDigit(for: "4006 381 3339"))
        XCTAssertNil(GTIN.checkDigit(for: "٤٠٠٦"), "Arabic-Indic digits are digits to Unicode, not to GS1")
    }

    func testHasValidCheckDigit_realCodes_areValid() {
        for code in ["4006381333931", "5901234123457", "036000291452", "96385074"] {
            XCTAssertTrue(GTIN.hasValidCheckDigit(code), code)
        }
    }

    func testHasValidCheckDigit_wrongLastDigit_isRejected() {
        for code in ["4006381333932", "5901234123450", "036000291453", "96385070"] {
            XCTAssertFalse(GTIN.hasValidCheckDigit(code), code)
        }
    }

    func testHasValidCheckDigit_nonDigitsOrTooShort_isRejected() {
        XCTAssertFalse(GTIN.hasValidCheckDigit("400638133393X"))
        XCTAssertFalse(GTIN.hasValidCheckDigit("40063813A3931"))
        XCTAssertFalse(GTIN.hasValidCheckDigit("0"))
        XCTAssertFalse(GTIN.hasValidCheckDigit(""))
    }

    // MARK: UPC-E

    func testExpandUPCE_lastDigitZeroToTwo_insertsManufacturerZeros() {
        XCTAssertEqual(GTIN.expandUPCE("04252614"), "042100005264")
    }

    func testExpandUPCE_lastDigitThree_keepsThreeManufacturerDigits() {
        XCTAssertEqual(GTIN.expandUPCE("01234531"), "012300000451")
    }

    func testExpandUPCE_lastDigitFour_keepsFourManufacturerDigits() {
        XCTAssertEqual(GTIN.expandUPCE("01234543"), "012340000053")
    }

    func testExpandUPCE_lastDigitFiveToNine_endsItemWithThatDigit() {
        XCTAssertEqual(GTIN.expandUPCE("01234565"), "012345000065")
    }

    func testExpandUPCE_numberSystemOne_isKept() {
        XCTAssertEqual(GTIN.expandUPCE("11234502"), "112000003452")
        XCTAssertEqual(GTIN.expandUPCE("16543214"), "165100004324")
    }

    func testExpandUPCE_withoutCheckDigit_computesIt() {
        XCTAssertEqual(GTIN.expandUPCE("0425261"), "042100005264")
        XCTAssertEqual(GTIN.expandUPCE("425261"), "042100005264", "six digits imply number system 0")
    }

    func testExpandUPCE_badCheckDigit_isNil() {
        XCTAssertNil(GTIN.expandUPCE("04252615"))
        XCTAssertNil(GTIN.expandUPCE("01234560"))
    }

    func testExpandUPCE_numberSystemTwoOrMalformed_isNil() {
        XCTAssertNil(GTIN.expandUPCE("24252614"))
        XCTAssertNil(GTIN.expandUPCE("2425261"))
        XCTAssertNil(GTIN.expandUPCE("0425261A"))
        XCTAssertNil(GTIN.expandUPCE("42526"))
        XCTAssertNil(GTIN.expandUPCE("042526144"))
    }

    func testUPCEDigits_ofAnExpandedUPCE_giveItsDigitsBack() {
        for upcE in ["04252614", "01234531", "01234543", "01234565", "11234502", "16543214"] {
            let gtin13 = "0" + GTIN.expandUPCE(upcE)!
            let found = GTIN.upcEDigits(ofGTIN13: gtin13).map { "\($0.system)" + $0.six.map(String.init).joined() + "\($0.check)" }
            XCTAssertTrue(found.contains(upcE), "\(upcE): \(found)")
        }
    }

    func testUPCEDigits_severalUPCEsOfOneUPCA_givesEach() {
        // 0·120000 (last digit 0: 12 0 00 · 00 000), 0·120003 (3: 120 00 · 000 00) and 0·120004
        // (4: 1200 0 · 0000 0) all stand for the UPC-A 0 12000 00000.
        let gtin13 = "0" + GTIN.expandUPCE("0120000")!
        XCTAssertEqual(GTIN.expandUPCE("0120003").map { "0" + $0 }, gtin13)
        XCTAssertEqual(GTIN.expandUPCE("0120004").map { "0" + $0 }, gtin13)
        XCTAssertEqual(Set(GTIN.upcEDigits(ofGTIN13: gtin13).map { $0.six.map(String.init).joined() }),
                       ["120000", "120003", "120004"])
    }

    func testUPCEDigits_codeNoUPCEStandsFor_isEmpty() {
        XCTAssertTrue(GTIN.upcEDigits(ofGTIN13: "0036000291452").isEmpty, "a UPC-A with no zeros to drop")
        XCTAssertTrue(GTIN.upcEDigits(ofGTIN13: "5901234123457").isEmpty, "an EAN-13")
        XCTAssertTrue(GTIN.upcEDigits(ofGTIN13: "0212345000063").isEmpty, "number system 2")
        XCTAssertTrue(GTIN.upcEDigits(ofGTIN13: "0012345000066").isEmpty, "a wrong check digit")
    }

    // MARK: Readings from ZBar symbols

    private func read(_ symbology: Symbology, _ text: String, quality: Int = 4) -> BarcodeReading? {
        GTIN.reading(from: DecodedSymbol(symbology: symbology, text: text, quality: quality,
                                         box: PixelBox(x: 1, y: 2, width: 3, height: 4)))
    }

    func testReading_ean13_keepsTextAsGTIN() throws {
        let reading = try XCTUnwrap(read(.ean13, "4006381333931", quality: 7))
        XCTAssertEqual(reading, BarcodeReading(symbology: .ean13, text: "4006381333931", gtin13: "4006381333931",
                                               quality: 7, box: PixelBox(x: 1, y: 2, width: 3, height: 4)))
        XCTAssertEqual(reading.productKey, "4006381333931")
    }

    func testReading_upcA_prefixesZeroForGTIN() throws {
        let reading = try XCTUnwrap(read(.upcA, "036000291452"))
        XCTAssertEqual(reading.symbology, .upcA)
        XCTAssertEqual(reading.text, "036000291452")
        XCTAssertEqual(reading.gtin13, "0036000291452")
    }

    func testReading_upcE_expandsTextAndGTIN() throws {
        let reading = try XCTUnwrap(read(.upcE, "04252614"))
        XCTAssertEqual(reading.symbology, .upcE)
        XCTAssertEqual(reading.text, "042100005264")
        XCTAssertEqual(reading.gtin13, "0042100005264")
    }

    func testReading_ean8_zeroPadsGTINToThirteenDigits() throws {
        let reading = try XCTUnwrap(read(.ean8, "96385074"))
        XCTAssertEqual(reading.text, "96385074")
        XCTAssertEqual(reading.gtin13, "0000096385074")
    }

    func testReading_nonRetailCodes_haveNoGTINAndKeyOnText() throws {
        let qr = try XCTUnwrap(read(.qr, "https://example.com/p/42"))
        XCTAssertNil(qr.gtin13)
        XCTAssertEqual(qr.productKey, "https://example.com/p/42")
        let code128 = try XCTUnwrap(read(.code128, "4006381333931"))
        XCTAssertNil(code128.gtin13, "digits in a Code 128 are not a GTIN")
        XCTAssertEqual(code128.text, "4006381333931")
    }

    func testReading_retailCodeWithWrongCheckDigit_isNil() {
        XCTAssertNil(read(.ean13, "4006381333932"))
        XCTAssertNil(read(.upcA, "036000291453"))
        XCTAssertNil(read(.upcE, "04252615"))
        XCTAssertNil(read(.ean8, "96385075"))
    }

    func testReading_retailCodeOfWrongLength_isNil() {
        XCTAssertNil(read(.ean13, "036000291452"), "a valid UPC-A is not an EAN-13")
        XCTAssertNil(read(.upcA, "4006381333931"), "a valid EAN-13 is not a UPC-A")
        XCTAssertNil(read(.ean8, "4006381333931"))
    }

    func testReading_emptyNonRetailText_isNil() {
        XCTAssertNil(read(.qr, ""))
        XCTAssertNil(read(.code93, ""))
    }

    // MARK: Symbology names

    func testSymbologyName_spellingsOfConfig_areAccepted() {
        XCTAssertEqual(Symbology(name: "ean13"), .ean13)
        XCTAssertEqual(Symbology(name: "EAN-13"), .ean13)
        XCTAssertEqual(Symbology(name: "upc_a"), .upcA)
        XCTAssertEqual(Symbology(name: "UPC-E"), .upcE)
        XCTAssertEqual(Symbology(name: "ean-8"), .ean8)
        XCTAssertEqual(Symbology(name: "Code 128"), .code128)
        XCTAssertEqual(Symbology(name: "code93"), .code93)
        XCTAssertEqual(Symbology(name: "qr"), .qr)
        XCTAssertEqual(Symbology(name: "QR-Code"), .qr)
    }

    func testSymbologyName_everyRawValue_parsesBackToItself() {
        for symbology in Symbology.allCases {
            XCTAssertEqual(Symbology(name: symbology.rawValue), symbology)
        }
    }

    func testSymbologyName_unsupported_isNil() {
        XCTAssertNil(Symbology(name: "code39"))
        XCTAssertNil(Symbology(name: "EAN"))
        XCTAssertNil(Symbology(name: ""))
    }

    func testIsRetail_onlyGS1Codes() {
        XCTAssertEqual(Symbology.allCases.filter(\.isRetail), [.ean13, .upcA, .upcE, .ean8])
    }
}
