import Catalog
import Foundation
@testable import Pipeline
import Vocabulary
import XCTest

/// What each correction makes of the captures: decided from values alone, no catalogue.
final class CorrectionTests: XCTestCase {
    /// A photo of `capture` taken at `seconds`, of `quality`, with hits of `codes` (GTIN-13s).
    private func photo(_ id: String, of capture: String, at seconds: Double, quality: Double = 0.9,
                       source: TimeSource = .exif) -> Photo {
        Photo(id: id, captureId: capture, position: 0, originalName: "\(id).jpg", sourcePath: "\(id).jpg",
              originalPath: "originals/s/\(id).jpg", thumbPath: "thumbs/s/\(id).jpg", thumbWidth: 400, thumbHeight: 300,
              sha256: String(repeating: "0", count: 64), byteSize: 1, format: .jpeg, width: 4000, height: 3000,
              orientation: 1, make: nil, model: nil, takenAt: "2026-11-21T14:00:\(Int(seconds))Z", takenUTC: seconds,
              timeSource: source, sharpness: 0.5, contrast: 0.5, brightness: 0.5, decodeConfidence: nil,
              quality: quality, rating: Rating(score: quality))
    }

    private func hit(_ photo: String, _ code: String) -> BarcodeHit {
        BarcodeHit(photoId: photo, symbology: .ean13, text: code, gtin13: code, quality: 20, x: 0, y: 0, width: 10, height: 10)
    }

    /// A capture of `photos` (re-positioned), with barcode `code`, as a commit would have made it.
    private func capture(_ id: String, _ photos: [Photo], code: String? = nil, hits: [BarcodeHit] = []) -> CaptureSnapshot {
        let placed = photos.enumerated().map { index, photo in
            var placed = photo
            (placed.captureId, placed.position) = (id, index)
            return placed
        }
        let quality = placed.map(\.quality).reduce(0, +) / Double(placed.count)
        let row = Capture(id: id, runId: 1, setName: "s", barcode: code, symbology: code == nil ? nil : .ean13, gtin13: code,
                          capturedAt: placed[0].takenAt, capturedUTC: placed[0].takenUTC, timeSource: placed[0].timeSource,
                          photoCount: placed.count, quality: quality, rating: Rating(score: quality), createdAt: "t",
                          agentId: "chef", agentName: "Chef")
        return CaptureSnapshot(capture: row, photos: placed, hits: hits)
    }

    private let code = "4006381333931"
    private let otherCode = "5902255046404"
    private func newId() -> String { "new" }

    func testMerge_noBarcodeIntoOneWith_takesTheBarcodeAndOrdersPhotosByTime() throws {
        let a = capture("a", [photo("a1", of: "a", at: 10, quality: 0.4)])
        let b = capture("b", [photo("b1", of: "b", at: 5, quality: 0.9), photo("b2", of: "b", at: 20, quality: 0.9)],
                        code: code, hits: [hit("b1", code)])
        let plan = try Correction.merge(target: "a", others: ["b"]).plan([a, b], newCaptureId: newId)
        XCTAssertEqual(plan.kind, .merge)
        let merged = try XCTUnwrap(plan.after.first)
        XCTAssertEqual(plan.after.count, 1)
        XCTAssertEqual(merged.capture.id, "a", "the first capture keeps its id")
        XCTAssertEqual(merged.photos.map(\.id), ["b1", "a1", "b2"])
        XCTAssertEqual(merged.photos.map(\.position), [0, 1, 2])
        XCTAssertEqual(Set(merged.photos.map(\.captureId)), ["a"])
        XCTAssertEqual(merged.capture.barcode, code)
        XCTAssertEqual(merged.capture.gtin13, code)
        XCTAssertEqual(merged.capture.photoCount, 3)
        XCTAssertEqual(merged.capture.quality, (0.4 + 0.9 + 0.9) / 3, accuracy: 1e-9)
        XCTAssertEqual(merged.capture.rating, .good)
        XCTAssertEqual(merged.capture.capturedUTC, 5, "the time of the first photo")
        XCTAssertEqual(merged.hits.count, 1)
    }

    func testMerge_differentBarcodes_isRefused() {
        let a = capture("a", [photo("a1", of: "a", at: 1)], code: code)
        let b = capture("b", [photo("b1", of: "b", at: 2)], code: otherCode)
        XCTAssertThrowsError(try Correction.merge(target: "a", others: ["b"]).plan([a, b], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .differentBarcodes(code, otherCode))
        }
    }

    func testMerge_oneCapture_isRefused() {
        let a = capture("a", [photo("a1", of: "a", at: 1)])
        XCTAssertThrowsError(try Correction.merge(target: "a", others: ["a"]).plan([a], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .mergeNeedsTwo)
        }
    }

    func testSplit_beforeAPhoto_makesANewCaptureOfItAndTheLaterOnesEachPartWithTheCodeItRead() throws {
        let photos = [photo("p1", of: "a", at: 1, quality: 0.9), photo("p2", of: "a", at: 2, quality: 0.9),
                      photo("p3", of: "a", at: 3, quality: 0.3)]
        let source = capture("a", photos, code: code, hits: [hit("p3", code)])
        let plan = try Correction.split(capture: "a", atPhoto: "p2").plan([source], newCaptureId: newId)
        XCTAssertEqual(plan.after.map(\.capture.id), ["a", "new"])
        XCTAssertEqual(plan.after.map { $0.photos.map(\.id) }, [["p1"], ["p2", "p3"]])
        XCTAssertEqual(plan.after[1].photos.map(\.position), [0, 1])
        XCTAssertNil(plan.after[0].capture.barcode, "the first part read no code")
        XCTAssertEqual(plan.after[1].capture.barcode, code, "the part that read the code keeps it")
        XCTAssertEqual(plan.after[1].capture.capturedUTC, 2)
        XCTAssertEqual(plan.after[1].capture.rating, .fair)
        XCTAssertEqual(plan.after[1].capture.agentId, "chef", "the context goes with both parts")
    }

    func testSplit_uploadWhoseFirstPhotoHasOnlyTheUploadsFileTime_keepsTheCamerasTime() throws {
        // Uploaded: p1 lost its EXIF time, so its time is the upload's (an hour after the photos),
        // and it came first by name. Both parts' times are their first camera times, as the commit's
        // was; a part with no camera time keeps its file time, marked.
        let photos = [photo("p1", of: "a", at: 3600, source: .fileTime), photo("p2", of: "a", at: 10),
                      photo("p3", of: "a", at: 20), photo("p4", of: "a", at: 3600, source: .fileTime)]
        let source = capture("a", photos)
        let plan = try Correction.split(capture: "a", atPhoto: "p3").plan([source], newCaptureId: newId)
        XCTAssertEqual(plan.after.map { $0.photos.map(\.id) }, [["p1", "p2"], ["p3", "p4"]])
        XCTAssertEqual(plan.after.map(\.capture.capturedUTC), [10, 20])
        XCTAssertEqual(plan.after.map(\.capture.timeSource), [.exif, .exif])
        let alone = try Correction.split(capture: "a", atPhoto: "p2").plan([source], newCaptureId: newId)
        XCTAssertEqual(alone.after[0].capture.timeSource, .fileTime, "p1 alone has nothing better")
    }

    func testSplit_aCodeSetByHand_staysWithTheFirstPart() throws {
        let source = capture("a", [photo("p1", of: "a", at: 1), photo("p2", of: "a", at: 2)], code: code)
        let plan = try Correction.split(capture: "a", atPhoto: "p2").plan([source], newCaptureId: newId)
        XCTAssertEqual(plan.after.map(\.capture.barcode), [code, nil])
    }

    func testSplit_atTheFirstPhotoOrAPhotoOfAnother_isRefused() {
        let source = capture("a", [photo("p1", of: "a", at: 1), photo("p2", of: "a", at: 2)])
        XCTAssertThrowsError(try Correction.split(capture: "a", atPhoto: "p1").plan([source], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .splitAtFirstPhoto)
        }
        XCTAssertThrowsError(try Correction.split(capture: "a", atPhoto: "x").plan([source], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .photoNotInCapture(photo: "x", capture: "a"))
        }
    }

    func testMove_lastPhoto_removesItsCaptureAndKeepsBarcodes() throws {
        let a = capture("a", [photo("a1", of: "a", at: 5)], code: otherCode, hits: [hit("a1", otherCode)])
        let b = capture("b", [photo("b1", of: "b", at: 1), photo("b2", of: "b", at: 9)], code: code)
        let plan = try Correction.move(photo: "a1", from: "a", to: "b").plan([a, b], newCaptureId: newId)
        XCTAssertEqual(plan.after.map(\.capture.id), ["b"], "a had no other photo")
        XCTAssertEqual(plan.after[0].photos.map(\.id), ["b1", "a1", "b2"])
        XCTAssertEqual(plan.after[0].capture.barcode, code)
        XCTAssertEqual(plan.after[0].hits.map(\.photoId), ["a1"], "the photo's hits go with it")
    }

    func testMove_toItsOwnCapture_isRefused() {
        let a = capture("a", [photo("a1", of: "a", at: 5)])
        XCTAssertThrowsError(try Correction.move(photo: "a1", from: "a", to: "a").plan([a], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .moveToSameCapture)
        }
    }

    func testSetBarcode_setsAllThreeAndNoneRemovesThem_unchangedIsRefused() throws {
        let a = capture("a", [photo("a1", of: "a", at: 5)])
        let typed = try ManualBarcode(parsing: "036000291452")
        let set = try Correction.setBarcode(capture: "a", code: typed).plan([a], newCaptureId: newId)
        XCTAssertEqual(set.after[0].capture.barcode, "036000291452")
        XCTAssertEqual(set.after[0].capture.symbology, .upcA)
        XCTAssertEqual(set.after[0].capture.gtin13, "0036000291452")
        XCTAssertEqual(set.after[0].photos, a.photos)
        let removed = try Correction.setBarcode(capture: "a", code: nil).plan(set.after, newCaptureId: newId)
        XCTAssertNil(removed.after[0].capture.barcode)
        XCTAssertNil(removed.after[0].capture.gtin13)
        XCTAssertThrowsError(try Correction.setBarcode(capture: "a", code: nil).plan([a], newCaptureId: newId)) {
            XCTAssertEqual($0 as? CorrectionError, .barcodeUnchanged)
        }
    }

    func testDelete_leavesNoCapture() throws {
        let a = capture("a", [photo("a1", of: "a", at: 5)])
        let plan = try Correction.delete(capture: "a").plan([a], newCaptureId: newId)
        XCTAssertEqual(plan.kind, .delete)
        XCTAssertEqual(plan.after, [])
    }
}

final class ManualBarcodeTests: XCTestCase {
    func testParsing_eachRetailForm_normalisesAsTheReaderStoresIt() throws {
        let cases: [(String, String, Symbology, String)] = [
            ("4006381333931", "4006381333931", .ean13, "4006381333931"),
            ("4 006381 333931", "4006381333931", .ean13, "4006381333931"),
            ("036000291452", "036000291452", .upcA, "0036000291452"),
            ("96385074", "96385074", .ean8, "0000096385074"),
            ("06543217", "065100004327", .upcE, "0065100004327"),
            ("01234565", "01234565", .ean8, "0000001234565"),
            ("04006381333931", "4006381333931", .ean13, "4006381333931"),
        ]
        for (typed, text, symbology, gtin13) in cases {
            let code = try ManualBarcode(parsing: typed)
            XCTAssertEqual([code.text, code.symbology.rawValue, code.gtin13], [text, symbology.rawValue, gtin13], typed)
        }
    }

    func testParsing_wrongCheckDigit_namesTheRightOne() {
        XCTAssertThrowsError(try ManualBarcode(parsing: "4006381333932")) { error in
            XCTAssertEqual(error as? CorrectionError,
                           .invalidBarcode("4006381333932", reason: "its check digit should be 1, not 2"))
        }
    }

    func testParsing_lettersOrWrongLength_isRefused() {
        for typed in ["40063813339x1", "12345", "", "123456789012345"] {
            XCTAssertThrowsError(try ManualBarcode(parsing: typed), typed)
        }
    }
}
