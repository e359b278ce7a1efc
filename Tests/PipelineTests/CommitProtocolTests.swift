import FileSystem
import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import TestSupport
import Catalog
import SystemPackage

/// The commit protocol stopped after each of its steps, as a crash would stop it, then recovered by
/// a new committer and run again: the result is always the uninterrupted commit's
/// (docs/commit-protocol.md). Also: files that change between analysis and commit.
final class CommitProtocolTests: XCTestCase {
    /// What an uninterrupted commit of the bench's set leaves on disk.
    private func uninterrupted(originals: PipelineConfig.Originals = .move) throws -> [String] {
        let bench = try CommitBench(for: self, originals: originals)
        let report = try bench.commit()
        XCTAssertEqual([report.photos, report.captures, report.quarantined.count, report.duplicates.count], [3, 1, 1, 1])
        XCTAssertEqual(report.failed, [])
        XCTAssertEqual(FileOperations.exists(bench.setFolder), originals == .copy, "an emptied set folder is removed")
        return bench.state
    }

    /// Carries out the commit of the bench's set up to where `crash` stops it (given the plan and the
    /// journal's path), then recovers with a new committer and runs the set again; checks the end
    /// state is `expected`, with every photo catalogued once and nothing for `verify` to report.
    private func assertConverges(to expected: [String], originals: PipelineConfig.Originals = .move,
                                 line: UInt = #line,
                                 crash: (CommitBench, CommitPlan, FilePath) throws -> Void) throws {
        let bench = try CommitBench(for: self, originals: originals)
        let (set, results) = try bench.analyse()
        let plan = try bench.plan(set, results)
        let journal = try plan.journal.write(in: bench.layout.journal)
        try crash(bench, plan, journal)

        try bench.committer().recover()
        XCTAssertEqual(try CommitJournal.pending(in: bench.layout.journal), [], "recovery leaves no journal", line: line)
        XCTAssertEqual(try bench.verify(), [], "verify after recovery", line: line)
        if FileManager.default.fileExists(atPath: bench.setFolder.string) { try bench.commit() }
        XCTAssertEqual(bench.state, expected, line: line)
        XCTAssertEqual(try bench.catalogue.counts().photos, 3, line: line)
        XCTAssertEqual(try bench.verify(), [], line: line)
    }

    // MARK: A crash after each step

    func testRecover_crashRightAfterTheJournal_undoesAndTheRerunCommits() throws {
        try assertConverges(to: try uninterrupted()) { bench, _, _ in
            // A second journal being written when the process died.
            try Data("{\"setN".utf8).write(to: URL(fileURLWithPath: bench.path("library/.journal/.next.json.partial-1a2b3c4d").string))
        }
    }

    func testRecover_crashWhileCopyingOriginals_removesTheHalfCopyAndTheRerunCommits() throws {
        let expected = try uninterrupted(originals: .copy)
        try assertConverges(to: expected, originals: .copy) { bench, plan, _ in
            let first = plan.journal.entries[0]
            try FileManager.default.createDirectory(atPath: bench.path("library/originals/shelf").string, withIntermediateDirectories: true)
            try FileOperations.copy(FilePath(first.source), to: bench.layout.absolute(first.original))
            let half = try Data(contentsOf: URL(fileURLWithPath: plan.journal.entries[1].source)).prefix(1000)
            try half.write(to: URL(fileURLWithPath: bench.path("library/originals/shelf/.IMG_0002.jpg.partial-0badf00d").string))
        }
    }

    func testRecover_crashAfterPlacing_removesThePlacedFilesAndTheRerunCommits() throws {
        try assertConverges(to: try uninterrupted()) { bench, plan, _ in
            try bench.committer().placeFiles(plan.journal)
        }
    }

    func testRecover_crashAfterTheTransaction_finishesWithoutARerun() throws {
        try assertConverges(to: try uninterrupted()) { bench, plan, _ in
            try bench.committer().placeFiles(plan.journal)
            try bench.catalogue.commit(try XCTUnwrap(plan.records))
        }
    }

    func testRecover_crashHalfwayThroughTheInboxCleanUp_finishesIt() throws {
        try assertConverges(to: try uninterrupted()) { bench, plan, _ in
            try bench.committer().placeFiles(plan.journal)
            try bench.catalogue.commit(try XCTUnwrap(plan.records))
            try FileOperations.remove(FilePath(plan.journal.entries[0].source))
            let asides = try XCTUnwrap(plan.journal.asides)
            XCTAssertEqual(asides.count, 2)
            // The first file set aside with its note; the second's note written, the file not yet moved,
            // and a third note half written.
            try FileOperations.setAside(FilePath(asides[0].source), at: FilePath(asides[0].destination), note: asides[0].note)
            let folder = FilePath(asides[1].destination).removingLastComponent()
            try FileOperations.makeDirectories(folder)
            try FileOperations.write(Array("stale".utf8), to: FilePath(asides[1].destination + ".reason"))
            try Data("file: x".utf8).write(to: URL(fileURLWithPath: folder.appending(".text.jpg.reason.partial-12345678").string))
        }
    }

    func testRecover_crashBeforeTheJournalIsRemoved_finishesIt() throws {
        try assertConverges(to: try uninterrupted()) { bench, plan, journal in
            try bench.committer().placeFiles(plan.journal)
            try bench.catalogue.commit(try XCTUnwrap(plan.records))
            let copy = FilePath(journal.string + ".copy")
            try FileManager.default.copyItem(atPath: journal.string, toPath: copy.string)
            _ = try bench.committer().finish(plan.journal, at: copy)
        }
    }

    func testRecover_fileSetAsideByAnEarlierVersionWithoutItsNote_getsItsNote() throws {
        // Earlier versions moved the file first and wrote the note after: a crash between left a
        // quarantined file without a note. The journal now names it, so recovery writes the note.
        try assertConverges(to: try uninterrupted()) { bench, plan, _ in
            try bench.committer().placeFiles(plan.journal)
            try bench.catalogue.commit(try XCTUnwrap(plan.records))
            let aside = try XCTUnwrap(plan.journal.asides?.last)
            try FileManager.default.createDirectory(atPath: FilePath(aside.destination).removingLastComponent().string,
                                                    withIntermediateDirectories: true)
            try FileOperations.move(FilePath(aside.source), to: FilePath(aside.destination))
        }
    }

    // MARK: Recovery's own cases

    func testRecover_unreadableJournal_isRemovedAndTouchesNothingElse() throws {
        let bench = try CommitBench(for: self)
        try FileManager.default.createDirectory(atPath: bench.layout.journal.string, withIntermediateDirectories: true)
        try Data("{\"setName\": \"shelf\", \"entr".utf8).write(to: URL(fileURLWithPath: bench.path("library/.journal/torn.json").string))
        let before = bench.state

        try bench.committer().recover()
        XCTAssertEqual(bench.state, before.filter { $0 != "library/.journal/torn.json" })
    }

    func testRecover_journalThatCannotBeRead_stopsWithItsPathAndKeepsIt() throws {
        // A read failure is not damage: the journal may be sound. It used to be removed like a torn one.
        let bench = try CommitBench(for: self)
        let journal = bench.path("library/.journal/unreadable.json")
        try FileManager.default.createDirectory(atPath: journal.string, withIntermediateDirectories: true)
        let before = bench.state
        XCTAssertThrowsError(try bench.committer().recover()) { error in
            XCTAssertEqual(error as? FileOperationError,
                           FileOperationError(operation: "read the commit journal", path: journal, code: EISDIR))
        }
        XCTAssertEqual(bench.state, before, "nothing removed, nothing touched")
    }

    func testRecover_journalFolderThatCannotBeListed_stopsInsteadOfSkippingIt() throws {
        // It used to be taken for an empty folder, and its commits neither finished nor undone.
        let bench = try CommitBench(for: self)
        try FileManager.default.createDirectory(atPath: bench.path("library").string, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: bench.layout.journal.string))
        XCTAssertThrowsError(try bench.committer().recover()) { error in
            XCTAssertEqual(error as? FileOperationError,
                           FileOperationError(operation: "list the commit journals in", path: bench.layout.journal, code: ENOTDIR))
        }
        XCTAssertEqual(try CommitJournal.pending(in: bench.path("library/no-such-folder")), [], "no folder: no journal")
    }

    func testRecover_uncommittedJournalWhoseInboxOriginalVanished_putsTheOriginalBack() throws {
        let bench = try CommitBench(for: self)
        let (set, results) = try bench.analyse()
        let plan = try bench.plan(set, results)
        _ = try plan.journal.write(in: bench.layout.journal)
        try bench.committer().placeFiles(plan.journal)
        let first = plan.journal.entries[0]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first.source))
        try FileManager.default.removeItem(atPath: first.source)

        try bench.committer().recover()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first.source)), bytes, "the library's copy went back to the inbox")
        XCTAssertFalse(FileOperations.exists(bench.layout.absolute(first.original)))
        XCTAssertEqual(try bench.verify(), [])
    }

    func testCommit_staleReasonNoteAtTheDestination_isReplacedNotAnError() throws {
        let bench = try CommitBench(for: self)
        let note = bench.path("quarantine/shelf/text.jpg.reason")
        try FileManager.default.createDirectory(atPath: note.removingLastComponent().string, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: note.string))

        let report = try bench.commit()
        XCTAssertEqual(report.quarantined.map(\.keptAt), [bench.path("quarantine/shelf/text.jpg").string])
        XCTAssertTrue(try String(contentsOfFile: note.string, encoding: .utf8).contains("reason: not an image"))
    }

    // MARK: Files that change under us

    func testCommit_setFolderSwappedForALinkAfterAnalysis_touchesNothingOutsideTheInbox() throws {
        // Files were linked and removed by path: `O_NOFOLLOW` guards only the last component, so the
        // commit used to catalogue the files the link led to and remove them from there.
        let bench = try CommitBench(for: self)
        let (set, results) = try bench.analyse()
        let outside = bench.path("outside")
        try FileManager.default.moveItem(atPath: bench.setFolder.string, toPath: outside.string)
        try FileManager.default.createSymbolicLink(atPath: bench.setFolder.string, withDestinationPath: outside.string)
        let before = try FileManager.default.contentsOfDirectory(atPath: outside.string).sorted()

        let report = try bench.commit(set, results)
        XCTAssertEqual(report.photos, 0)
        XCTAssertEqual(report.failed.count, 5, "the set stays where it is, to be looked at again")
        XCTAssertEqual(report.outcome.message, "set waiting", "logged and counted as waiting, not committed")
        XCTAssertEqual(try bench.catalogue.counts().photos, 0, "nothing from outside the inbox is catalogued")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.string).sorted(), before, "nothing outside is removed")
        XCTAssertEqual(bench.state.filter { $0.hasPrefix("library/originals/") && !$0.hasSuffix("/") }, [], "nothing is placed")
    }

    func testAnalyse_setFolderSwappedForALinkAfterListing_isRefusedAsALink() throws {
        let bench = try CommitBench(for: self)
        let set = try PhotoSet(name: "shelf", folder: bench.setFolder)
        let outside = bench.path("outside")
        try FileManager.default.moveItem(atPath: bench.setFolder.string, toPath: outside.string)
        try FileManager.default.createSymbolicLink(atPath: bench.setFolder.string, withDestinationPath: outside.string)
        let analyzer = try PhotoAnalyzer(config: bench.config, stagingFolder: bench.layout.staging)
        for file in set.files {
            guard case .rejected(_, let error) = analyzer.analyse(file) else { return XCTFail("\(file.relativePath) was read") }
            XCTAssertEqual(error, .symbolicLink, file.relativePath)
        }
    }

    /// Analyses the set, lets `change` alter IMG_0002.jpg, commits: nothing may move. Then the retry
    /// (a new analysis) commits the set.
    private func assertChangeKeepsTheSetInTheInbox(line: UInt = #line, _ change: (String) throws -> Void) throws {
        let bench = try CommitBench(for: self)
        let before = bench.state
        let (set, results) = try bench.analyse()
        try change(bench.path("inbox/shelf/IMG_0002.jpg").string)

        let report = try bench.commit(set, results)
        XCTAssertEqual(report.failed.count, 5, "every file of the set stays", line: line)
        XCTAssertTrue(report.failed.allSatisfy {
            $0.reason.contains("shelf/IMG_0002.jpg changed while being ingested, will be retried")
        }, "\(report.failed)", line: line)
        XCTAssertEqual([report.photos, report.quarantined.count, report.duplicates.count], [0, 0, 0], line: line)
        XCTAssertEqual(bench.state, (before + ["library/.journal/"]).sorted(), "nothing placed, moved or left in staging",
                       line: line)
        XCTAssertEqual(try bench.catalogue.counts().photos, 0, line: line)

        let retry = try bench.commit()
        XCTAssertEqual(retry.failed, [], line: line)
        XCTAssertEqual(retry.photos + retry.quarantined.count + retry.duplicates.count, 5, line: line)
        XCTAssertEqual(try bench.verify(), [], line: line)
    }

    func testCommit_photoGrownAfterAnalysis_staysInTheInboxAndIsRetried() throws {
        try assertChangeKeepsTheSetInTheInbox { path in
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0, 1, 2]))
            try handle.close()
        }
    }

    func testCommit_photoTruncatedAfterAnalysis_staysInTheInboxAndIsRetried() throws {
        try assertChangeKeepsTheSetInTheInbox { path in XCTAssertEqual(truncate(path, 2000), 0) }
    }

    func testCommit_photoReplacedAfterAnalysis_staysInTheInboxAndIsRetried() throws {
        try assertChangeKeepsTheSetInTheInbox { path in
            // The same bytes under a new inode, as a program that saves by rename would leave them.
            let temporary = path + ".new"
            try FileManager.default.copyItem(atPath: path, toPath: temporary)
            XCTAssertEqual(rename(temporary, path), 0)
        }
    }

    func testCommit_photoRewrittenInPlaceAfterAnalysis_staysInTheInboxAndIsRetried() throws {
        try assertChangeKeepsTheSetInTheInbox { path in
            // Same size, same inode: only the modification time tells.
            var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        }
    }

    func testCommit_photoChangedWhileRead_isNeitherQuarantinedNorCommitted() throws {
        let bench = try CommitBench(for: self)
        let before = bench.state
        let (set, results) = try bench.analyse()
        let changed = CommitBench.changedWhileRead(results, "IMG_0002.jpg")

        let report = try bench.commit(set, changed)
        XCTAssertEqual(report.failed.count, 5)
        XCTAssertTrue(report.failed.allSatisfy { $0.reason.contains("changed while being ingested, will be retried") })
        XCTAssertEqual(report.quarantined, [])
        XCTAssertEqual(bench.state, before)
    }

    func testCommit_thumbnailNotStagedForLackOfSpace_stopsTheRunAndMovesNothing() throws {
        let bench = try CommitBench(for: self)
        let before = bench.state
        let (set, results) = try bench.analyse()
        let full = FileOperationError(operation: "write", path: bench.path("library/.staging/x.jpg"), code: ENOSPC)
        let failing = results.map { outcome -> PhotoOutcome in
            guard case .analysed(let photo) = outcome, photo.file.name == "IMG_0002.jpg" else { return outcome }
            return .rejected(photo.file, .notStaged(full))
        }

        XCTAssertThrowsError(try bench.commit(set, failing)) { error in
            XCTAssertEqual(error as? FileOperationError, full)
        }
        XCTAssertEqual(bench.state.filter { !$0.hasPrefix("library/.staging/") }, before.filter { !$0.hasPrefix("library/.staging/") },
                       "not quarantined as a bad file, nothing moved")
    }
}
