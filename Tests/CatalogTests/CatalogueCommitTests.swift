@testable import Catalog
import Foundation
import GRDB
import TestSupport
import XCTest

final class CatalogueCommitTests: XCTestCase {
    private var catalogue: Catalogue!

    override func setUpWithError() throws {
        catalogue = try Catalogue.inMemory(logger: testLogger)
    }

    private func countRows() throws -> [Int] {
        let counts = try catalogue.counts()
        return [counts.captures, counts.photos, counts.hits]
    }

    func testCommit_validSet_storesEveryFieldOfEveryRecord() throws {
        let set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
        try catalogue.commit(set)

        XCTAssertEqual(try countRows(), [1, 2, 2])
        XCTAssertEqual(try catalogue.captures(), set.captures)
        XCTAssertEqual(try catalogue.photos(ofCapture: "c1"), set.photos)
        let hits = try catalogue.hits(ofPhoto: "c1-p1")
        XCTAssertEqual(hits.count, 1)
        XCTAssertNotNil(hits.first?.id)
        XCTAssertEqual(hits.first.map { [$0.photoId, $0.text] }, ["c1-p1", "4006381333931"])
    }

    func testCommit_fileBackedCatalogue_isVisibleAfterReopening() throws {
        let path = try URL(fileURLWithPath: makeTemporaryFolder()).appendingPathComponent("catalogue.sqlite").path
        try Catalogue(path: path, logger: testLogger).commit(makeSet(captureId: "c1", firstSeed: 1))
        XCTAssertEqual(try Catalogue(path: path, logger: testLogger).photos(ofCapture: "c1").count, 2)
    }

    func testCommit_secondPhotoDuplicatesFirstHash_throwsAndWritesNothing() throws {
        var set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
        set.photos[1].sha256 = set.photos[0].sha256

        XCTAssertThrowsError(try catalogue.commit(set)) { error in
            guard case let .commitFailed(_, setName, reason)? = error as? CatalogError else {
                return XCTFail("expected commitFailed, got \(error)")
            }
            XCTAssertEqual(setName, "shelf-1")
            XCTAssertTrue(reason.contains("photo.sha256"), reason)
        }
        XCTAssertEqual(try countRows(), [0, 0, 0])
    }

    func testCommit_hashCataloguedByEarlierSet_keepsEarlierSetOnly() throws {
        try catalogue.commit(makeSet(captureId: "c1", photoCount: 2, firstSeed: 1))
        var second = makeSet(captureId: "c2", photoCount: 2, firstSeed: 10)
        second.photos[1].sha256 = makeHash(2)

        XCTAssertThrowsError(try catalogue.commit(second))
        XCTAssertEqual(try countRows(), [1, 2, 2])
        XCTAssertEqual(try catalogue.captures().map(\.id), ["c1"])
    }

    func testCommit_duplicateOriginalPath_throwsAndWritesNothing() throws {
        var set = makeSet(captureId: "c1", photoCount: 2, firstSeed: 1)
        set.photos[1].originalPath = set.photos[0].originalPath

        XCTAssertThrowsError(try catalogue.commit(set))
        XCTAssertEqual(try countRows(), [0, 0, 0])
    }

    func testCommit_photoOfUnknownCapture_failsForeignKeyCheck() throws {
        let photo = makePhoto(id: "orphan", captureId: "no-such-capture", seed: 1)

        XCTAssertThrowsError(try catalogue.commit(CommittedSet(captures: [], photos: [photo], hits: []))) { error in
            XCTAssertTrue("\(error)".contains("FOREIGN KEY"), "\(error)")
        }
        XCTAssertEqual(try countRows(), [0, 0, 0])
    }

    func testCommit_qualityOutsideScale_failsCheckConstraint() throws {
        var set = makeSet(captureId: "c1", firstSeed: 1)
        set.captures[0].quality = 1.5

        XCTAssertThrowsError(try catalogue.commit(set)) { error in
            XCTAssertTrue("\(error)".contains("CHECK"), "\(error)")
        }
        XCTAssertEqual(try countRows(), [0, 0, 0])
    }

    func testRatingColumn_textOutsideTheVocabulary_failsCheckConstraint() throws {
        try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))

        XCTAssertThrowsError(try catalogue.writer.write { db in
            try db.execute(sql: "UPDATE capture SET rating = 'Great' WHERE id = 'c1'")
        }) { error in
            XCTAssertTrue("\(error)".contains("CHECK"), "\(error)")
        }
    }

    func testCommit_vocabulary_isStoredAsItsText() throws {
        try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))

        let row = try XCTUnwrap(try catalogue.writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT capture.symbology, capture.time_source, capture.rating, photo.format, barcode_hit.symbology AS hit
                FROM capture JOIN photo ON photo.capture_id = capture.id JOIN barcode_hit ON barcode_hit.photo_id = photo.id
                """)
        })
        XCTAssertEqual(row["symbology"] as String?, "EAN-13")
        XCTAssertEqual(row["time_source"] as String?, "exif")
        XCTAssertEqual(row["rating"] as String?, "Good")
        XCTAssertEqual(row["format"] as String?, "jpeg")
        XCTAssertEqual(row["hit"] as String?, "EAN-13")
    }

    func testDeleteCapture_cascadesToPhotosAndHits() throws {
        try catalogue.commit(makeSet(captureId: "c1", photoCount: 2, firstSeed: 1))
        try catalogue.commit(makeSet(captureId: "c2", photoCount: 3, firstSeed: 10))

        try catalogue.writer.write { db in
            _ = try Capture.deleteOne(db, key: "c1")
        }
        XCTAssertEqual(try countRows(), [1, 3, 3])
        XCTAssertEqual(try catalogue.photos(ofCapture: "c1"), [])
        XCTAssertEqual(try catalogue.hits(ofPhoto: "c1-p0"), [])
        XCTAssertEqual(try catalogue.hits(ofPhoto: "c2-p0").count, 1)
    }

    func testDeleteRun_keepsItsCapturesWithoutRun() throws {
        let run = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
        var set = makeSet(captureId: "c1", firstSeed: 1)
        set.captures[0].runId = run.id
        try catalogue.commit(set)

        try catalogue.writer.write { db in
            _ = try Run.deleteOne(db, key: run.id)
        }
        XCTAssertEqual(try catalogue.captures().map(\.runId), [nil])
    }

    func testStartRun_returnsStoredRunWithId() throws {
        let first = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
        let second = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-02T00:00:00Z")

        XCTAssertNotNil(first.id)
        XCTAssertNotEqual(first.id, second.id)
        let stored = try catalogue.read { db in try Run.fetchOne(db, key: first.id) }
        XCTAssertEqual(stored, first)
    }

    func testFinishRun_startedRun_storesFinalCounts() throws {
        var run = try catalogue.startRun(inbox: "/inbox", startedAt: "2024-01-01T00:00:00Z")
        run.finishedAt = "2024-01-01T00:05:00Z"
        run.sets = 2
        run.captures = 5
        run.photos = 12
        run.duplicates = 1
        run.quarantined = 1
        run.failed = 0

        try catalogue.finishRun(run)
        XCTAssertEqual(try catalogue.read { db in try Run.fetchOne(db, key: run.id) }, run)
    }

    func testFinishRun_runNeverStarted_throwsUnknownRun() throws {
        let run = Run(id: 42, startedAt: "2024-01-01T00:00:00Z", inbox: "/inbox")
        assertThrows(.unknownRun(path: ":memory:")) {
            try catalogue.finishRun(run)
        }
    }
}
