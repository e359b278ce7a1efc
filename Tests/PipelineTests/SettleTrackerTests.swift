@testable import Imaging
@testable import Pipeline
import XCTest
import SystemPackage

/// The settle decisions of `ingest watch`, on an injected clock and injected file stamps.
final class SettleTrackerTests: XCTestCase {
    private let oneFile = SetStamps(["IMG_0001.jpg": .init(size: 1000, modified: 1)])
    private let twoFiles = SetStamps(["IMG_0001.jpg": .init(size: 1000, modified: 1),
                                      "IMG_0002.jpg": .init(size: 2000, modified: 2)])

    /// Asserts that `set` is not ready just before `time`, is ready at `time`, and is then ingested
    /// when its files still have `stamps`.
    private func assertSettles(_ tracker: inout SettleTracker, _ set: String, at time: Double, stamps: SetStamps,
                               line: UInt = #line) {
        XCTAssertEqual(tracker.ready(at: time - 0.01), [], "not ready before \(time)", line: line)
        XCTAssertEqual(tracker.ready(at: time), [set], line: line)
        XCTAssertEqual(tracker.confirm(set: set, stamps: stamps, at: time), .ingest, line: line)
    }

    func testReady_beforeTheQuietPeriodEnds_namesNoSet() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        XCTAssertEqual(tracker.ready(at: 109.9), [])
        XCTAssertEqual(tracker.nextDeadline, 110)
    }

    func testReady_whenTheQuietPeriodEnds_namesTheSetAndConfirmIngestsIt() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        assertSettles(&tracker, "a", at: 110, stamps: oneFile)
        XCTAssertEqual(tracker.tracked, [], "an ingested set is no longer tracked")
        XCTAssertNil(tracker.nextDeadline)
    }

    func testNoteChange_whileSettling_restartsTheQuietPeriod() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        tracker.noteChange(set: "a", at: 108, stamps: twoFiles)
        assertSettles(&tracker, "a", at: 118, stamps: twoFiles)
    }

    func testConfirm_whenASizeOrTimeChangedWithoutAnEvent_waitsAnotherQuietPeriod() {
        let grown = SetStamps(["IMG_0001.jpg": .init(size: 5000, modified: 1)])
        let touched = SetStamps(["IMG_0001.jpg": .init(size: 1000, modified: 2)])
        for changed in [grown, touched] {
            var tracker = SettleTracker(settleSeconds: 10)
            tracker.noteChange(set: "a", at: 100, stamps: oneFile)
            XCTAssertEqual(tracker.confirm(set: "a", stamps: changed, at: 110), .wait)
            assertSettles(&tracker, "a", at: 120, stamps: changed)
        }
    }

    func testConfirm_afterAChangeWithoutStamps_waitsOnceForStableFiles() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100)
        XCTAssertEqual(tracker.confirm(set: "a", stamps: oneFile, at: 110), .wait)
        XCTAssertEqual(tracker.confirm(set: "a", stamps: oneFile, at: 120), .ingest)
    }

    func testNoteMarker_whileFilesStillChange_makesTheSetReadyAtOnce() {
        var tracker = SettleTracker(settleSeconds: 30)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        tracker.noteMarker(set: "a")
        tracker.noteChange(set: "a", at: 101, stamps: oneFile)
        XCTAssertEqual(tracker.ready(at: 101), ["a"], "a later change does not cancel the marker")
        XCTAssertEqual(tracker.nextDeadline, -.infinity)
        XCTAssertEqual(tracker.confirm(set: "a", stamps: twoFiles, at: 101), .ingest,
                       "the marker says the set is complete; its stamps are not compared")
    }

    func testNoteMarker_forAnUntrackedSet_makesItReady() {
        var tracker = SettleTracker(settleSeconds: 30)
        tracker.noteMarker(set: "b")
        XCTAssertEqual(tracker.ready(at: 0), ["b"])
        XCTAssertEqual(tracker.confirm(set: "b", stamps: oneFile, at: 0), .ingest)
    }

    func testConfirm_setWithoutFiles_isNothingNewAndForgotten() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100, stamps: SetStamps())
        XCTAssertEqual(tracker.confirm(set: "a", stamps: SetStamps(), at: 110), .nothingNew)
        XCTAssertEqual(tracker.tracked, [])
    }

    func testConfirm_setHoldingOnlyWhatItsIngestLeft_isNothingNew() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteIngested(set: "a", remaining: oneFile)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        XCTAssertEqual(tracker.confirm(set: "a", stamps: oneFile, at: 110), .nothingNew)
    }

    func testNoteSwept_setHoldingOnlyWhatItsIngestLeft_isNotTracked() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteIngested(set: "a", remaining: oneFile)
        tracker.noteSwept(set: "a", at: 100, stamps: oneFile)
        tracker.noteSwept(set: "empty", at: 100, stamps: SetStamps())
        XCTAssertEqual(tracker.tracked, [])
    }

    func testNoteSwept_fileAddedAfterTheIngest_startsANewQuietPeriod() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteIngested(set: "a", remaining: SetStamps())
        tracker.noteSwept(set: "a", at: 100, stamps: oneFile)
        assertSettles(&tracker, "a", at: 110, stamps: oneFile)
    }

    func testNoteSwept_setAlreadySettling_keepsItsDeadline() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        tracker.noteSwept(set: "a", at: 105, stamps: oneFile)
        XCTAssertEqual(tracker.nextDeadline, 110)
    }

    func testForget_removedSet_isNoLongerReadyAndItsIngestIsForgotten() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteIngested(set: "a", remaining: oneFile)
        tracker.noteChange(set: "a", at: 100, stamps: oneFile)
        tracker.forget(set: "a")
        XCTAssertEqual(tracker.ready(at: 200), [])
        tracker.noteSwept(set: "a", at: 200, stamps: oneFile)
        XCTAssertEqual(tracker.tracked, ["a"], "a new folder of the same name with the same files is new")
    }

    func testReady_severalSets_namesEachDueOneByName() {
        var tracker = SettleTracker(settleSeconds: 10)
        tracker.noteChange(set: "c", at: 100, stamps: oneFile)
        tracker.noteChange(set: "a", at: 101, stamps: oneFile)
        tracker.noteChange(set: "b", at: 105, stamps: oneFile)
        XCTAssertEqual(tracker.nextDeadline, 110)
        XCTAssertEqual(tracker.ready(at: 111), ["a", "c"])
    }

    func testStamps_ofASet_skipFilesThatAreGone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(count: 123).write(to: folder.appendingPathComponent("IMG_0001.jpg"))
        try Data(count: 7).write(to: folder.appendingPathComponent(".ready"))
        let set = try PhotoSet(name: "s", folder: FilePath(folder.path))
        try Data(count: 5).write(to: folder.appendingPathComponent("IMG_0002.jpg"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("IMG_0001.jpg"))
        XCTAssertEqual(SetStamps(of: set), SetStamps(), "listed but gone")
        let stamps = SetStamps(of: try PhotoSet(name: "s", folder: FilePath(folder.path)))
        XCTAssertEqual(stamps.files.keys.sorted(), ["IMG_0002.jpg"], "hidden files are not stamped")
        XCTAssertEqual(stamps.files["IMG_0002.jpg"]?.size, 5)
        try Data(count: 2).write(to: folder.appendingPathComponent("capture.json"))
        XCTAssertEqual(SetStamps(of: try PhotoSet(name: "s", folder: FilePath(folder.path))).files.keys.sorted(),
                       ["IMG_0002.jpg", "capture.json"], "the set's sidecar counts as one of its files")
    }
}
