import Imaging
@testable import Pipeline
import Vocabulary
import XCTest

/// Rules on reads that need no pixels: two codes across the same bars, and Code 128's FNC4 text.
final class ReadingRulesTests: XCTestCase {
    private func reading(_ symbology: Symbology, _ text: String, gtin13: String? = nil, _ box: PixelBox) -> BarcodeReading {
        BarcodeReading(symbology: symbology, text: text, gtin13: gtin13, quality: 10, box: box)
    }

    func testWithoutConflicts_twoCodesAcrossTheSameBars_dropsBoth() {
        let reads = [reading(.ean13, "4006381333931", gtin13: "4006381333931", PixelBox(x: 100, y: 50, width: 200, height: 4)),
                     reading(.ean13, "4006381333948", gtin13: "4006381333948", PixelBox(x: 104, y: 70, width: 196, height: 6))]
        XCTAssertEqual(reads.withoutConflicts(), [])
        XCTAssertEqual(reads.conflicted(), reads)
    }

    func testWithoutConflicts_sameCodeTwiceOrCodesApart_keepsThem() {
        let code = reading(.ean13, "4006381333931", gtin13: "4006381333931", PixelBox(x: 100, y: 50, width: 200, height: 4))
        var again = code
        again.box = PixelBox(x: 102, y: 80, width: 198, height: 4)
        let apart = reading(.ean13, "5901234123457", gtin13: "5901234123457", PixelBox(x: 100, y: 600, width: 200, height: 4))
        XCTAssertEqual([code, again, apart].withoutConflicts(), [code, again, apart])
    }

    func testWithoutConflicts_qrCodeOverBars_keptAndKeepsTheLinearRead() {
        let linear = reading(.ean13, "4006381333931", gtin13: "4006381333931", PixelBox(x: 100, y: 50, width: 200, height: 4))
        let qr = reading(.qr, "https://example.org", PixelBox(x: 120, y: 40, width: 100, height: 100))
        XCTAssertEqual([linear, qr].withoutConflicts(), [linear, qr])
    }

    func testSharesBars_verticalCodesSideBySide_onlyWhenWithinHalfACodesLength() {
        let bars = PixelBox(x: 50, y: 100, width: 4, height: 200)
        XCTAssertTrue(bars.sharesBars(with: PixelBox(x: 140, y: 110, width: 4, height: 190)))
        XCTAssertFalse(bars.sharesBars(with: PixelBox(x: 400, y: 100, width: 4, height: 200)))
    }

    func testIsExtended_fnc4TextOfZBarsPlainText_trueOnlyForTheShiftedSame() {
        // FNC4 then "s" is "ó" (0x73 + 0x80); ZBar drops FNC4 and gives "s".
        XCTAssertTrue(BarcodeReader.isExtended("Aóó1", of: "Ass1"))
        XCTAssertFalse(BarcodeReader.isExtended("Ass1", of: "Ass1"), "nothing extended: ZBar's text stays")
        XCTAssertFalse(BarcodeReader.isExtended("Aóó2", of: "Ass1"), "another code")
        XCTAssertFalse(BarcodeReader.isExtended("Aóó", of: "Ass1"), "shorter")
    }

    func testIsSameCode_code128ReadWithAndWithoutFNC4_isOneCodeThatZXingConfirms() throws {
        let box = PixelBox(x: 10, y: 10, width: 300, height: 40)
        let zbar = reading(.code128, "Ass1", box), zxing = reading(.code128, "Aóó1", box)
        XCTAssertTrue(zxing.isSameCode(as: zbar))
        XCTAssertFalse(reading(.code128, "Aóó2", box).isSameCode(as: zbar), "another code")
        XCTAssertFalse(reading(.code93, "Aóó1", box).isSameCode(as: reading(.code93, "Ass1", box)), "FNC4 is Code 128's")
        let ean = reading(.ean13, "4006381333931", gtin13: "4006381333931", box)
        XCTAssertTrue(ean.isSameCode(as: ean))
        // zxing-cpp decides: the template reader, which reads no Code 128, is not asked.
        let templates = BarcodeReader.TemplateEvidence(pixels: GreyImage(width: 1, height: 1, pixels: [255]), candidates: [],
                                                       rules: .fitted, memo: nil)
        XCTAssertEqual(try BarcodeReader.secondOpinion(on: zbar, zxing: [zxing], templates: templates), .confirms)
        XCTAssertEqual(try BarcodeReader.secondOpinion(on: zbar, zxing: [reading(.code128, "Aóó2", box)], templates: templates),
                       .contradicts)
    }
}
