import Foundation
@testable import Imaging
import TestSupport
import XCTest

/// Tesseract behind `TextRecognizer`, and the copies and turns the text reader reads.
final class TextRecognizerTests: XCTestCase {
    private func sample(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: IngestHarness.packageRoot.appendingPathComponent("samples/\(path)")))
    }

    func testWords_ofASamplePhoto_readItsPrintWithBoxesAroundIt() throws {
        // samples/bad-files/IMG_0016.jpg: "CRUNCHY OATS", dark on a light ground, a tenth of the photo high.
        let copies = try GreyImage.uprightCopies(of: try sample("bad-files/IMG_0016.jpg"), longEdge: 2000)
        XCTAssertEqual(max(copies.grey.width, copies.grey.height), 2000, "enlarged to the long edge read")
        let words = try TextRecognizer(languages: ["eng"]).words(of: copies.grey, seconds: 20)
        let sure = words.filter { $0.confidence > 80 }
        XCTAssertEqual(sure.map(\.text), ["CRUNCHY", "OATS"], "\(words)")
        XCTAssertEqual(Set(sure.map(\.line)).count, 1, "one line")
        for word in sure {
            XCTAssertGreaterThan(word.box.height, copies.grey.height / 30, "\(word)")
            XCTAssertLessThan(word.box.x + word.box.width, copies.grey.width)
        }
    }

    func testWords_ofAnImageWithoutPrint_isEmpty() throws {
        let blank = GreyImage(width: 640, height: 480, pixels: [UInt8](repeating: 200, count: 640 * 480))
        XCTAssertEqual(try TextRecognizer(languages: ["eng"]).words(of: blank, seconds: 20), [])
    }

    func testInit_languageNotInstalled_namesTheDebianPackage() {
        XCTAssertEqual(TextRecognizer.missingLanguage(among: ["eng", "xyz"]), "xyz")
        XCTAssertNil(TextRecognizer.missingLanguage(among: ["eng", "fra", "deu"]))
        XCTAssertThrowsError(try TextRecognizer(languages: ["eng", "xyz"])) { error in
            XCTAssertEqual(error as? TextError, .missingLanguage("xyz"))
            XCTAssertTrue("\(error)".contains("tesseract-ocr-xyz"), "\(error)")
        }
    }

    func testTurned_movesEveryPixelAndUnturnedBoxesComeBack() {
        // 3 × 2: 0 1 2 / 3 4 5
        let image = GreyImage(width: 3, height: 2, pixels: [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(image.turned(quarterTurns: 1).pixels, [3, 0, 4, 1, 5, 2])
        XCTAssertEqual(image.turned(quarterTurns: 2).pixels, [5, 4, 3, 2, 1, 0])
        XCTAssertEqual(image.turned(quarterTurns: 3).pixels, [2, 5, 1, 4, 0, 3])
        XCTAssertEqual(image.turned(quarterTurns: 4).pixels, image.pixels)
        // A box drawn on the turned image, mapped back, covers the pixels it covered there.
        let (width, height) = (7, 5)
        let source = GreyImage(width: width, height: height, pixels: (0 ..< width * height).map { UInt8($0) })
        let box = PixelBox(x: 1, y: 2, width: 2, height: 3)
        for turns in 0 ..< 4 {
            let turned = source.turned(quarterTurns: turns)
            let back = turned.cropped(to: box).pixels.sorted()
            let original = source.cropped(to: box.unturned(quarterTurns: turns, width: width, height: height)).pixels.sorted()
            XCTAssertEqual(back, original, "turns \(turns)")
        }
    }

    func testLightPrintAsInk_makesNearWhiteBlackAndTheRestWhite() {
        let image = GreyImage(width: 4, height: 1, pixels: [255, 230, 224, 10])
        XCTAssertEqual(image.lightPrintAsInk(from: 225).pixels, [0, 0, 255, 255])
    }
}
