import Foundation
@testable import Pipeline
import TestSupport
import XCTest
import Catalog
import SystemPackage

/// Two sets holding the same photo, planned before either is committed — as two workers sharing
/// a catalogue plan them: the second commit loses the race on the photo's SHA-256 and is planned
/// again, the photo then set aside as a duplicate of the first set's. On SQLite and PostgreSQL.
final class CommitRaceTests: XCTestCase {
    private func assertSecondCommitSetsTheSharedPhotoAside(catalog: String?, _ label: String) throws {
        let bench = try CommitBench(for: self, catalog: catalog)
        let other = bench.config.inbox.appending("other")
        try FileManager.default.createDirectory(atPath: other.string, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bench.setFolder.appending("IMG_0002.jpg").string, toPath: other.appending("same.jpg").string)
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
            XCTAssertTrue(FileManager.default.fileExists(atPath: photo.thumbnail.path.string), "\(label): thumbnail back in staging")
        }

        let report = try bench.commit(shelf, shelfResults)
        XCTAssertEqual([report.photos, report.duplicates.count, report.failed.count], [2, 2, 0], "\(label): \(report)")
        XCTAssertTrue(report.duplicates.contains { $0.path == "shelf/IMG_0002.jpg" }, "\(label): \(report.duplicates)")
        XCTAssertEqual(try bench.catalogue.counts().photos, 3, label)
        XCTAssertEqual(try bench.verify(), [], label)
    }

    /// A bench on a new PostgreSQL database whose worker claimed, analysed and planned the set
    /// `shelf`, not yet committed; `lapse` runs SQL on that database (as another worker would).
    private func claimedAndPlanned() throws -> (CommitBench, PhotoSet, CommitPlan, lapse: (String) throws -> Void) {
        let server = try PostgresServer.shared
        let database = try server.makeDatabase()
        addTeardownBlock { try? server.dropDatabase(database) }
        let bench = try CommitBench(for: self, catalog: server.url(database: database))
        let worker = try XCTUnwrap(bench.worker)
        XCTAssertEqual(try worker.claim("shelf"), .claimed(takenOverFrom: nil))
        let (shelf, results) = try bench.analyse()
        return (bench, shelf, try bench.plan(shelf, results), { _ = try server.psql($0, database: database) })
    }

    /// A worker whose claim lapsed (under load, or paused) while it analysed a set, and another
    /// worker took the set over: its commit is refused, and the set is reported as handed over, not
    /// failed. Its files stay in the inbox for the worker that holds it; nothing is catalogued.
    /// (The run's summary counts it apart, and the run's exit code does not count it.)
    func testCommit_claimTakenOverMeanwhile_handsTheSetOverAndFailsNothing() throws {
        let (bench, shelf, plan, lapse) = try claimedAndPlanned()
        // Its lease lapsed and another worker took the set over, as `claimSet` takes a lapsed claim.
        try lapse("UPDATE set_claim SET worker_id = 'other' WHERE set_name = 'shelf'")

        let report = try bench.committer().commit(plan)
        XCTAssertEqual(report.failed, [])
        XCTAssertEqual(report.handedOver.map(\.path).sorted(), shelf.files.map { "shelf/\($0.relativePath)" }.sorted())
        XCTAssertEqual(report.photos, 0)
        XCTAssertEqual(report.outcome.message, "set handed over", "logged and counted as handed over, not committed")
        XCTAssertEqual(try bench.catalogue.counts().photos, 0)
        // What it placed stays with its journal, for the worker that holds the set to finish or undo.
        let committer = bench.committer()
        XCTAssertTrue(FileManager.default.fileExists(atPath: committer.journalFolder
            .appending(CommitJournal.fileName(forSet: "shelf")).string))
        XCTAssertTrue(shelf.files.allSatisfy { FileManager.default.fileExists(atPath: $0.absolutePath.string) }, "left in the inbox")
        var summary = RunSummary()
        summary.sets = [report]
        XCTAssertTrue(summary.isClean, "a set handed over needs no one")
    }

    /// As above, but the worker that took the set over has committed it too, its originals moved
    /// out of the inbox, before the first one places its files: placing them fails, and the set is
    /// still handed over, not failed (a run would exit 1 and count a failure no one has to look at).
    func testCommit_claimTakenOverAndSetCommittedMeanwhile_handsTheSetOverAndFailsNothing() throws {
        let (bench, shelf, plan, lapse) = try claimedAndPlanned()
        // The other worker took the set over, committed it (its originals left the inbox) and let it go.
        try lapse("DELETE FROM set_claim WHERE set_name = 'shelf'")
        let elsewhere = try TemporaryFolder.make("taken-over")
        addTeardownBlock { try? FileManager.default.removeItem(at: elsewhere) }
        for file in shelf.files {
            try FileManager.default.moveItem(atPath: file.absolutePath.string, toPath: elsewhere.appendingPathComponent(file.relativePath).path)
        }

        let report = try bench.committer().commit(plan)
        XCTAssertEqual(report.failed, [])
        XCTAssertEqual(report.handedOver.map(\.path).sorted(), shelf.files.map { "shelf/\($0.relativePath)" }.sorted())
        XCTAssertEqual(report.outcome, .handedOver)
        XCTAssertEqual(try bench.catalogue.counts().photos, 0)
        XCTAssertEqual(bench.state.filter { $0.hasPrefix("library/originals/shelf") || $0.hasPrefix("library/thumbs/shelf") }, [],
                       "what it placed is undone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bench.committer().journalFolder
            .appending(CommitJournal.fileName(forSet: "shelf")).string), "and its journal gone")
    }

    /// A worker whose claim lapsed while it read the set, and the worker that took the set over
    /// moved a photo away (committing it) under the read: the set waits for no later run of this
    /// worker's, it is handed over, not failed (a run would exit 1 for a set no one has to look at).
    func testCommit_photoGoneWhileReadBecauseTheSetWasTakenOver_handsTheSetOverAndFailsNothing() throws {
        let (bench, shelf, _, lapse) = try claimedAndPlanned()
        let before = bench.state
        let (_, results) = try bench.analyse()
        let changed = CommitBench.changedWhileRead(results, "IMG_0002.jpg")
        try lapse("UPDATE set_claim SET worker_id = 'other' WHERE set_name = 'shelf'")

        let report = try bench.commit(shelf, changed)
        XCTAssertEqual(report.failed, [])
        XCTAssertEqual(report.handedOver.map(\.path).sorted(), shelf.files.map { "shelf/\($0.relativePath)" }.sorted())
        XCTAssertEqual(report.outcome, .handedOver)
        XCTAssertEqual(try bench.catalogue.counts().photos, 0)
        XCTAssertEqual(bench.state.filter { $0.contains(".staging/") && !before.contains($0) }, [],
                       "its staged thumbnails are removed")
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
