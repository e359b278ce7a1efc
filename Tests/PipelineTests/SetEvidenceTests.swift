@testable import Pipeline
import XCTest
import Vocabulary
import Catalog
import SystemPackage

/// A code read once by the second look counts when another photo of the same set reads it too.
final class SetEvidenceTests: XCTestCase {
    let weak = makeReading(.ean13, "5000213002834", gtin13: "5000213002834", quality: 5)
    let other = makeReading(.ean13, "4000539017100", gtin13: "4000539017100", quality: 4)

    func photo(_ name: String, barcodes: [BarcodeReading] = [], unconfirmed: [BarcodeReading] = []) -> AnalysedPhoto {
        makeAnalysedPhoto(InboxFile(setName: "s", relativePath: name, absolutePath: FilePath("/inbox/s/\(name)")),
                          hash: name, barcodes: barcodes, unconfirmed: unconfirmed)
    }

    func testConfirmed_codeReadOnceOnTwoPhotos_countsOnBoth() {
        let photos = SetEvidence.confirmed([photo("a", unconfirmed: [weak]), photo("b", unconfirmed: [weak, other])])
        XCTAssertEqual(photos.map { $0.barcodes.map(\.text) }, [["5000213002834"], ["5000213002834"]])
        XCTAssertEqual(photos.flatMap(\.unconfirmedBarcodes), [], "what was not agreed on is dropped")
    }

    func testConfirmed_codeReadOnceWhereAnotherPhotoReadItSurely_counts() {
        let photos = SetEvidence.confirmed([photo("a", barcodes: [weak]), photo("b", unconfirmed: [weak])])
        XCTAssertEqual(photos[1].barcodes.map(\.text), ["5000213002834"])
    }

    func testConfirmed_codeReadOnceOnOnePhotoOnly_doesNotCount() {
        let photos = SetEvidence.confirmed([photo("a", unconfirmed: [weak]), photo("b", unconfirmed: [other])])
        XCTAssertEqual(photos.flatMap(\.barcodes), [])
    }
}
