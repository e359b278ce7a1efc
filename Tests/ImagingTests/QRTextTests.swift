@testable import Imaging
import XCTest

/// A QR code's bytes as text: UTF-8 when they are, else Shift-JIS, else ISO 8859-1.
final class QRTextTests: XCTestCase {
    func testQRText_utf8_isUTF8() {
        XCTAssertEqual(DecodedSymbol.qrText(Array("Grandessa – 500 g".utf8)), "Grandessa – 500 g")
    }

    func testQRText_shiftJIS_isDecodedAsShiftJIS() {
        // "*ﾃﾞｻﾞｲﾝQR*" as in the real photos' Japanese codes: half-width katakana, one byte each.
        let bytes: [UInt8] = [0x2A, 0xC3, 0xDE, 0xBB, 0xDE, 0xB2, 0xDD, 0x51, 0x52, 0x2A]
        XCTAssertEqual(DecodedSymbol.qrText(bytes), "*ﾃﾞｻﾞｲﾝQR*")
        // "テスト": two bytes each.
        XCTAssertEqual(DecodedSymbol.qrText([0x83, 0x65, 0x83, 0x58, 0x83, 0x67]), "テスト")
    }

    func testQRText_neither_isLatin1() {
        // 0xE9 is é in ISO 8859-1; alone at the end it is neither UTF-8 nor Shift-JIS.
        XCTAssertEqual(DecodedSymbol.qrText([0x43, 0x61, 0x66, 0xE9]), "Café")
    }
}
