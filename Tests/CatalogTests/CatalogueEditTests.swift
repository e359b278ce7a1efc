@testable import Catalog
import Foundation
import XCTest

/// Edits: one transaction each, recorded with the captures before and after, undone by writing
/// the before back — refused when the captures changed since.
final class CatalogueEditTests: CatalogueTestCase {
    private var catalogue: Catalogue!

    /// Runs `body` on each backend, on a catalogue of two captures: a (2 photos) and b (3).
    private func withTwoCaptures(_ body: () throws -> Void) {
        onEveryBackend(onDisk: true) { catalogue in
            try catalogue.commit(makeSet(captureId: "a", photoCount: 2, firstSeed: 1, capturedUTC: 100))
            try catalogue.commit(makeSet(captureId: "b", photoCount: 3, firstSeed: 10, capturedUTC: 200))
            self.catalogue = catalogue
            defer { self.catalogue = nil }
            try body()
        }
    }

    /// `found`'s photos moved into the first capture, in order (a merge without the pipeline's rules).
    private func mergePlan(_ found: [CaptureSnapshot]) -> EditPlan {
        var merged = found[0]
        merged.photos = found.flatMap(\.photos).enumerated().map { index, photo in
            var moved = photo
            (moved.captureId, moved.position) = (merged.capture.id, index)
            return moved
        }
        merged.hits = found.flatMap(\.hits)
        merged.capture.photoCount = merged.photos.count
        return EditPlan(kind: .merge, summary: "merged", after: [merged])
    }

    /// The catalogue's captures with their photo ids by position: what an edit changes.
    private func layout() throws -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: try catalogue.captures().map { ($0.id, try catalogue.photos(ofCapture: $0.id).map(\.id)) })
    }

    func testApplyEdit_merge_movesThePhotosRemovesTheOtherCaptureAndRecordsBothStates() {
        withTwoCaptures {
            let edit = try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "2026-11-24T10:00:00Z", mergePlan)
            XCTAssertEqual(try layout(), ["a": ["a-p0", "a-p1", "b-p0", "b-p1", "b-p2"]])
            XCTAssertEqual(try catalogue.counts().hits, 5, "hits go with their photos")
            let stored = try XCTUnwrap(try catalogue.edit(id: edit.id))
            XCTAssertEqual(stored, edit)
            XCTAssertEqual(stored.before.map(\.capture.id), ["a", "b"])
            XCTAssertEqual(stored.after.map(\.capture.id), ["a"])
            XCTAssertEqual(try catalogue.edits(ofCapture: "b", limit: 5).map(\.id), [edit.id])
        }
    }

    func testApplyEdit_decideThrows_writesNothing() {
        withTwoCaptures {
            struct Refused: Error {}
            let before = try layout()
            XCTAssertThrowsError(try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "t") { _ in throw Refused() }) {
                XCTAssertTrue($0 is Refused)
            }
            XCTAssertEqual(try layout(), before)
            XCTAssertEqual(try catalogue.edits(limit: 5), [])
        }
    }

    func testApplyEdit_planWithAPhotoOfAnotherCapture_isRefusedAndWritesNothing() {
        withTwoCaptures {
            try catalogue.commit(makeSet(captureId: "c", photoCount: 1, firstSeed: 20, capturedUTC: 300))
            let stranger = try XCTUnwrap(try catalogue.photos(ofCapture: "c").first)
            let before = try layout()
            XCTAssertThrowsError(try catalogue.applyEdit(to: ["a"], origin: "test", madeAt: "t") { found in
                var taken = found[0]
                var photo = stranger
                (photo.captureId, photo.position) = ("a", 2)
                taken.photos.append(photo)
                taken.capture.photoCount = 3
                return EditPlan(kind: .move, summary: "stole a photo", after: [taken])
            }) { error in
                guard case .invalidPlan? = error as? EditError else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try layout(), before)
        }
    }

    func testApplyEdit_unknownCapture_throwsNamingIt() {
        withTwoCaptures {
            XCTAssertThrowsError(try catalogue.applyEdit(to: ["a", "gone"], origin: "test", madeAt: "t", mergePlan)) {
                XCTAssertEqual($0 as? EditError, .unknownCapture("gone"))
            }
        }
    }

    func testUndo_merge_bringsBackBothCapturesExactly() {
        withTwoCaptures {
            let captures = try catalogue.captures()
            let photos = try catalogue.allPhotos()
            let merge = try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "t1", mergePlan)
            let undo = try catalogue.undoEdit(id: nil, origin: "test", madeAt: "t2")
            XCTAssertEqual(undo.kind, .undo)
            XCTAssertEqual(undo.undoes, merge.id)
            XCTAssertEqual(try catalogue.captures(), captures)
            XCTAssertEqual(try catalogue.allPhotos(), photos)
            XCTAssertEqual(try catalogue.edit(id: merge.id)?.undoneBy, undo.id)
        }
    }

    func testUndo_ofAnUndo_makesTheEditAgain() {
        withTwoCaptures {
            _ = try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "t1", mergePlan)
            let merged = try layout()
            let undo = try catalogue.undoEdit(id: nil, origin: "test", madeAt: "t2")
            XCTAssertThrowsError(try catalogue.undoEdit(id: nil, origin: "test", madeAt: "t3")) {
                XCTAssertEqual($0 as? EditError, .nothingToUndo, "undoing again goes back, not forth")
            }
            _ = try catalogue.undoEdit(id: undo.id, origin: "test", madeAt: "t3")
            XCTAssertEqual(try layout(), merged)
        }
    }

    func testUndo_afterALaterEditChangedTheCapture_isRefusedNamingTheLaterEdit() {
        withTwoCaptures {
            try catalogue.commit(makeSet(captureId: "c", photoCount: 1, firstSeed: 20, capturedUTC: 300))
            let first = try catalogue.applyEdit(to: ["a", "b"], origin: "test", madeAt: "t1", mergePlan)
            let second = try catalogue.applyEdit(to: ["a", "c"], origin: "test", madeAt: "t2", mergePlan)
            let merged = try layout()
            XCTAssertThrowsError(try catalogue.undoEdit(id: first.id, origin: "test", madeAt: "t3")) {
                XCTAssertEqual($0 as? EditError, .changedSince(edit: first.id, capture: "a", later: second.id))
            }
            XCTAssertEqual(try layout(), merged)
            XCTAssertThrowsError(try catalogue.undoEdit(id: first.id + 100, origin: "test", madeAt: "t3")) {
                XCTAssertEqual($0 as? EditError, .unknownEdit(first.id + 100))
            }
            _ = try catalogue.undoEdit(id: second.id, origin: "test", madeAt: "t4")
            _ = try catalogue.undoEdit(id: first.id, origin: "test", madeAt: "t5")
            XCTAssertEqual(try layout(), ["a": ["a-p0", "a-p1"], "b": ["b-p0", "b-p1", "b-p2"], "c": ["c-p0"]])
            XCTAssertThrowsError(try catalogue.undoEdit(id: first.id, origin: "test", madeAt: "t6")) {
                guard case .alreadyUndone(first.id, _)? = $0 as? EditError else { return XCTFail("\($0)") }
            }
        }
    }

    func testDelete_holdsTheFilesAndItsUndoReleasesThemAndRestoresPhotosAndHits() {
        withTwoCaptures {
            let photos = try catalogue.photos(ofCapture: "b")
            let delete = try catalogue.applyEdit(to: ["b"], origin: "test", madeAt: "t1") { _ in
                EditPlan(kind: .delete, summary: "deleted", after: [])
            }
            XCTAssertNil(try catalogue.capture(id: "b"))
            XCTAssertEqual(try catalogue.counts().hits, 2)
            XCTAssertEqual(try catalogue.heldFilePaths(), Set(photos.flatMap { [$0.originalPath, $0.thumbPath] }))
            XCTAssertEqual(try catalogue.referencedPaths(among: photos.map(\.originalPath)), [], "no row names them")
            _ = try catalogue.undoEdit(id: delete.id, origin: "test", madeAt: "t2")
            XCTAssertEqual(try catalogue.photos(ofCapture: "b"), photos)
            XCTAssertEqual(try catalogue.counts().hits, 5)
            XCTAssertEqual(try catalogue.heldFilePaths(), [])
        }
    }

    func testUndoDelete_afterThePhotoWasCataloguedAgain_isRefused() {
        withTwoCaptures {
            let delete = try catalogue.applyEdit(to: ["b"], origin: "test", madeAt: "t1") { _ in
                EditPlan(kind: .delete, summary: "deleted", after: [])
            }
            // The same bytes ingested again (another id, another name): the undo would catalogue them twice.
            var again = makeSet(captureId: "b2", photoCount: 1, firstSeed: 10, capturedUTC: 400)
            again.photos[0].originalPath = "originals/elsewhere.jpg"
            try catalogue.commit(again)
            XCTAssertThrowsError(try catalogue.undoEdit(id: delete.id, origin: "test", madeAt: "t2")) { error in
                guard case .cannotRestore(delete.id, "b-p0", let reason)? = error as? EditError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("catalogued again"), reason)
            }
            XCTAssertNil(try catalogue.capture(id: "b"))
        }
    }

    func testReleaseHeldFiles_returnsThemOnceAndTheDeleteCanNoLongerBeUndone() {
        withTwoCaptures {
            let delete = try catalogue.applyEdit(to: ["b"], origin: "test", madeAt: "2026-11-24T10:00:00Z") { _ in
                EditPlan(kind: .delete, summary: "deleted", after: [])
            }
            XCTAssertEqual(try catalogue.releaseHeldFiles(madeBefore: "2026-11-24T09:00:00Z", purgedAt: "p"), [], "too recent")
            XCTAssertEqual(try catalogue.releaseHeldFiles(madeBefore: nil, purgedAt: "p").count, 6)
            XCTAssertEqual(try catalogue.releaseHeldFiles(madeBefore: nil, purgedAt: "p"), [])
            XCTAssertEqual(try catalogue.edit(id: delete.id)?.purgedAt, "p")
            XCTAssertThrowsError(try catalogue.undoEdit(id: delete.id, origin: "test", madeAt: "t")) {
                XCTAssertEqual($0 as? EditError, .purged(edit: delete.id))
            }
        }
    }

    func testUndo_nothingMade_saysSo() {
        withTwoCaptures {
            XCTAssertThrowsError(try catalogue.undoEdit(id: nil, origin: "test", madeAt: "t")) {
                XCTAssertEqual($0 as? EditError, .nothingToUndo)
            }
        }
    }

    func testCapturesFlaggedForReview_findEachReasonNewestFirst() {
        withTwoCaptures {
            try catalogue.commit(CommittedSet(captures: [makeCapture(id: "n", barcode: nil, gtin13: nil, capturedUTC: 150)],
                                              photos: [makePhoto(id: "n-p0", captureId: "n", seed: 30)], hits: []))
            XCTAssertEqual(try catalogue.captures(flaggedFor: .noBarcodeBesideOne, limit: 10).map(\.id), ["n"])
            XCTAssertEqual(try catalogue.captures(flaggedFor: .manyPhotos, limit: 10), [])
            XCTAssertEqual(try catalogue.captures(flaggedFor: .poor, limit: 10), [])
            XCTAssertEqual(try catalogue.captures(flaggedFor: .fileTime, limit: 10), [])
        }
    }
}
