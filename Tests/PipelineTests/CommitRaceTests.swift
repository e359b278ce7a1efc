import Catalog
import Foundation
@testable import Pipeline
import TestSupport
import XCTest

/// Two sets holding the same photo, planned before either is committed — as two workers sharing
/// a catalogue plan them: the second commit loses the race on the photo's SHA-256 and is planned
/// again, the photo then set aside as a duplicate of the first set's. On SQLite and PostgreSQL.
final class CommitRaceTests: XCTestCase {
    private func assertSecondCommitSetsTheSharedPhotoAside(catalog: String?, _ label: String) throws {
        let bench = try CommitBench(for: self, catalog: catalog)
        let other = (bench.config.inbox as NSString).appendingPathComponent("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bench.setFolder + "/IMG_0002.jpg", toPath: other + "/same.jpg")
        // On PostgreSQL the bench's worker holds both sets, as two workers would each hold one.
        for set in ["shelf", "other"] {
            XCTAssertEqual(try bench.worker?.claim(set) ?? .claimed(takenOverFrom: nil), .claimed(takenOverFrom: nil), label)
        }
        let (shelf, shelfResults) = try bench.analyse()
        let plan = try bench.plan(shelf, shelfResults)
        // Meanwhile another worker commits the same bytes in its set.
        let (otherSet, otherResults) = try bench.analyse("other")
        XCTAssertEqual(try bench.commit(otherSet, otherResults).photos, 1, label)

        XCTAssertThrowsError(try bench.committer().commit(plan), label) { error in
            XCTAssertTrue(error is SetCommitter.LostRace, "\(label): \(error)")
        }
        XCTAssertEqual(bench.state.filter { $0.hasPrefix("library/originals/shelf") || $0.hasPrefix("library/thumbs/shelf") }, [],
                       "\(label): the lost commit's files are undone")
        for case .analysed(let photo) in shelfResults {
            XCTAssertTrue(FileManager.default.fileExists(atPath: photo.thumbnail.path), "\(label): thumbnail back in staging")
        }

        let report = try bench.commit(shelf, shelfResults)
        XCTAssertEqual([report.photos, report.duplicates.count, report.failed.count], [2, 2, 0], "\(label): \(report)")
        XCTAssertTrue(report.duplicates.contains { $0.path == "shelf/IMG_0002.jpg" }, "\(label): \(report.duplicates)")
        XCTAssertEqual(try bench.catalogue.counts().photos, 3, label)
        XCTAssertEqual(try bench.verify(), [], label)
    }

    func testCommit_photoCataloguedByAnotherSetMeanwhile_isPlannedAgainAsADuplicate_onSQLite() throws {
        try assertSecondCommitSetsTheSharedPhotoAside(catalog: nil, "SQLite")
    }

    func testCommit_photoCataloguedByAnotherSetMeanwhile_isPlannedAgainAsADuplicate_onPostgreSQL() throws {
        let server = try PostgresServer.shared
        let database = try server.makeDatabase()
        addTeardownBlock { try? server.dropDatabase(database) }
        try assertSecondCommitSetsTheSharedPhotoAside(catalog: server.url(database: database), "PostgreSQL")
    }
}
