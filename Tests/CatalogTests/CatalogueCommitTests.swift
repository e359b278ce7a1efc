@testable import Catalog
import Foundation
import XCTest

final class CatalogueCommitTests: CatalogueTestCase {
    private func countRows(_ catalogue: Catalogue) throws -> [Int] {
        let counts = try catalogue.counts()
        return [counts.captures, counts.photos, counts.hits]
    }

    func testCommit_validSet_storesEveryFieldOfEveryRecord() {
        onEveryBackend { catalogue in
            let set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
            try catalogue.commit(set)

            XCTAssertEqual(try countRows(catalogue), [1, 2, 2])
            XCTAssertEqual(try catalogue.captures(), set.captures)
            XCTAssertEqual(try catalogue.photos(ofCapture: "c1"), set.photos)
            let hits = try catalogue.hits(ofPhoto: "c1-p1")
            XCTAssertEqual(hits.count, 1)
            XCTAssertNotNil(hits.first?.id)
            XCTAssertEqual(hits.first.map { [$0.photoId, $0.text] }, ["c1-p1", "4006381333931"])
        }
    }

    func testCommit_awkwardValues_comeBackExactly() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", photoCount: 1, firstSeed: 1)
            set.captures[0].note = "quote ' \" ? $1 ; -- and ünïcödé, 日本語\nnew line"
            set.captures[0].capturedUTC = 1_700_000_000.123456789
            set.captures[0].quality = 0.1 + 0.2
            set.photos[0].sharpness = 1e-300
            set.photos[0].contrast = -0.0
            set.photos[0].originalModified = Int64.max
            set.photos[0].make = nil
            try catalogue.commit(set)
            XCTAssertEqual(try catalogue.captures(), set.captures)
            XCTAssertEqual(try catalogue.photos(ofCapture: "c1"), set.photos)
        }
    }

    func testCommit_reopenedCatalogue_seesTheRows() {
        for backend in Backend.allCases {
            onBackend(backend) {
                let location = try makeLocation(on: backend)
                let first = try Catalogue(location, logger: testLogger)
                try first.commit(makeSet(captureId: "c1", firstSeed: 1))
                try first.close()
                let second = try Catalogue(location, create: false, logger: testLogger)
                defer { try? second.close() }
                XCTAssertEqual(try second.photos(ofCapture: "c1").count, 2)
            }
        }
    }

    func testCommit_secondPhotoDuplicatesFirstHash_throwsAlreadyCataloguedAndWritesNothing() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
            set.photos[1].sha256 = set.photos[0].sha256

            XCTAssertThrowsError(try catalogue.commit(set)) { error in
                guard case let .alreadyCatalogued(_, setName, reason)? = error as? CatalogError else {
                    return XCTFail("expected alreadyCatalogued, got \(error)")
                }
                XCTAssertEqual(setName, "shelf-1")
                XCTAssertTrue(reason.contains("sha256"), reason)
            }
            XCTAssertEqual(try countRows(catalogue), [0, 0, 0])
        }
    }

    func testCommit_hashCataloguedByEarlierSet_keepsEarlierSetOnly() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", photoCount: 2, firstSeed: 1))
            var second = makeSet(captureId: "c2", photoCount: 2, firstSeed: 10)
            second.photos[1].sha256 = makeHash(2)

            XCTAssertThrowsError(try catalogue.commit(second)) { error in
                guard case .alreadyCatalogued? = error as? CatalogError else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try countRows(catalogue), [1, 2, 2])
            XCTAssertEqual(try catalogue.captures().map(\.id), ["c1"])
        }
    }

    func testCommit_duplicateOriginalPath_throwsCommitFailedAndWritesNothing() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
            set.photos[1].originalPath = set.photos[0].originalPath

            XCTAssertThrowsError(try catalogue.commit(set)) { error in
                guard case .commitFailed? = error as? CatalogError else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try countRows(catalogue), [0, 0, 0])
        }
    }

    func testCommit_photoOfUnknownCapture_failsForeignKeyCheck() {
        onEveryBackend { catalogue in
            let photo = makePhoto(id: "orphan", captureId: "no-such-capture", seed: 1)

            XCTAssertThrowsError(try catalogue.commit(CommittedSet(captures: [], photos: [photo], hits: []))) { error in
                XCTAssertTrue("\(error)".lowercased().contains("foreign key"), "\(error)")
            }
            XCTAssertEqual(try countRows(catalogue), [0, 0, 0])
        }
    }

    func testCommit_qualityOutsideScale_failsCheckConstraint() {
        onEveryBackend { catalogue in
            var set = makeSet(captureId: "c1", firstSeed: 1)
            set.captures[0].quality = 1.5

            XCTAssertThrowsError(try catalogue.commit(set)) { error in
                XCTAssertTrue("\(error)".lowercased().contains("check"), "\(error)")
            }
            XCTAssertEqual(try countRows(catalogue), [0, 0, 0])
        }
    }

    func testRatingColumn_textOutsideTheVocabulary_failsCheckConstraint() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))

            XCTAssertThrowsError(try catalogue.write { db in
                try db.execute("UPDATE capture SET rating = 'Great' WHERE id = 'c1'")
            }) { error in
                XCTAssertEqual((error as? SQLError)?.kind, .check, "\(error)")
            }
        }
    }

    func testCommit_vocabulary_isStoredAsItsText() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))

            let row = try catalogue.read { db in
                var values: [String] = []
                try db.query("""
                    SELECT capture.symbology, capture.time_source, capture.rating, photo.format, barcode_hit.symbology AS hit
                    FROM capture JOIN photo ON photo.capture_id = capture.id JOIN barcode_hit ON barcode_hit.photo_id = photo.id
                    LIMIT 1
                    """, []) { row in values = (0 ..< 5).map { row[$0] } }
                return values
            }
            XCTAssertEqual(row, ["EAN-13", "exif", "Good", "jpeg", "EAN-13"])
        }
    }

    func testDeleteCapture_cascadesToPhotosAndHits() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", photoCount: 2, firstSeed: 1))
            try catalogue.commit(makeSet(captureId: "c2", photoCount: 3, firstSeed: 10))

            try catalogue.write { db in try db.execute("DELETE FROM capture WHERE id = 'c1'") }
            XCTAssertEqual(try countRows(catalogue), [1, 3, 3])
            XCTAssertEqual(try catalogue.photos(ofCapture: "c1"), [])
            XCTAssertEqual(try catalogue.hits(ofPhoto: "c1-p0"), [])
            XCTAssertEqual(try catalogue.hits(ofPhoto: "c2-p0").count, 1)
        }
    }

    func testDeleteRun_keepsItsCapturesWithoutRun() {
        onEveryBackend { catalogue in
            let run = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
            var set = makeSet(captureId: "c1", firstSeed: 1)
            set.captures[0].runId = run.id
            try catalogue.commit(set)

            try catalogue.write { db in try db.execute("DELETE FROM run WHERE id = ?", [run.id.sqlValue]) }
            XCTAssertEqual(try catalogue.captures().map(\.runId), [nil])
        }
    }

    private func storedRun(_ catalogue: Catalogue, _ id: Int64?) throws -> Run? {
        try catalogue.read { db in try db.fetchOne(Run.self, "SELECT * FROM run WHERE id = ?", [id.sqlValue]) }
    }

    func testStartRun_returnsStoredRunWithId() {
        onEveryBackend { catalogue in
            let first = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
            let second = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-02T00:00:00Z")

            XCTAssertNotNil(first.id)
            XCTAssertNotEqual(first.id, second.id)
            XCTAssertEqual(try storedRun(catalogue, first.id), first)
        }
    }

    func testFinishRun_startedRun_storesFinalCounts() {
        onEveryBackend { catalogue in
            var run = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
            run.finishedAt = "2024-01-01T00:05:00Z"
            run.sets = 2
            run.captures = 5
            run.photos = 12
            run.duplicates = 1
            run.quarantined = 1
            run.failed = 0

            try catalogue.finishRun(run)
            XCTAssertEqual(try storedRun(catalogue, run.id), run)
        }
    }

    func testFinishRun_runNeverStarted_throwsUnknownRun() {
        onEveryBackend { catalogue in
            let run = Run(id: 42, startedAt: "2024-01-01T00:00:00Z", inbox: "/inbox")
            assertThrows(.unknownRun(path: catalogue.path)) {
                try catalogue.finishRun(run)
            }
        }
    }
}
