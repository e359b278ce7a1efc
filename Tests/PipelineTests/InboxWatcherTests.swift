import Foundation
import Logging
@testable import Imaging
@testable import Pipeline
import XCTest
import SystemPackage

/// `InboxWatcher` on a real temporary inbox: which inotify events become which changes.
final class InboxWatcherTests: XCTestCase {
    private var inbox: URL!

    override func setUpWithError() throws {
        inbox = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: inbox)
    }

    private func makeWatcher() throws -> InboxWatcher {
        try InboxWatcher(inbox: FilePath(inbox.path), readyMarker: ".ready", logger: Logger(label: "test"))
    }

    private func makeFolder(_ path: String) throws {
        try FileManager.default.createDirectory(at: inbox.appendingPathComponent(path), withIntermediateDirectories: true)
    }

    private func write(_ path: String, bytes: Int = 10) throws {
        try Data(count: bytes).write(to: inbox.appendingPathComponent(path))
    }

    /// Every change reported within `seconds`, in order, with repeats folded.
    private func changes(_ watcher: InboxWatcher, within seconds: Double = 0.3) throws -> [InboxWatcher.Change] {
        let end = Date().addingTimeInterval(seconds)
        var all: [InboxWatcher.Change] = []
        while Date() < end {
            for change in try watcher.waitForChanges(timeout: end.timeIntervalSinceNow) where all.last != change {
                all.append(change)
            }
        }
        return all
    }

    func testWaitForChanges_fileWrittenInASet_reportsThatSet() throws {
        try makeFolder("set-a")
        try makeFolder("set-b")
        let watcher = try makeWatcher()
        try write("set-b/IMG_0001.jpg")
        XCTAssertEqual(try changes(watcher), [.changed(set: "set-b")])
    }

    func testWaitForChanges_setFolderCreatedWithNestedFolders_watchesThemAll() throws {
        let watcher = try makeWatcher()
        try makeFolder("new/sub/deeper")
        XCTAssertEqual(try changes(watcher), [.changed(set: "new")])
        try write("new/sub/deeper/IMG_0001.jpg")
        XCTAssertEqual(try changes(watcher), [.changed(set: "new")], "a file two folders down belongs to the set")
    }

    func testWaitForChanges_readyMarkerInTheSetFolder_reportsMarked() throws {
        try makeFolder("set-a/sub")
        let watcher = try makeWatcher()
        try write("set-a/sub/.ready")
        try write("set-a/.ready", bytes: 0)
        XCTAssertEqual(try changes(watcher), [.changed(set: "set-a"), .marked(set: "set-a")],
                       "only a marker at the top of the set folder counts")
    }

    func testWaitForChanges_setFolderDeleted_reportsRemoved() throws {
        try makeFolder("set-a")
        let watcher = try makeWatcher()
        try FileManager.default.removeItem(at: inbox.appendingPathComponent("set-a"))
        XCTAssertEqual(try changes(watcher), [.removed(set: "set-a")])
    }

    func testWaitForChanges_setFolderRenamed_reportsOldRemovedAndFilesUnderTheNewName() throws {
        try makeFolder("upload/sub")
        let watcher = try makeWatcher()
        try FileManager.default.moveItem(at: inbox.appendingPathComponent("upload"), to: inbox.appendingPathComponent("final"))
        XCTAssertEqual(try changes(watcher), [.removed(set: "upload"), .changed(set: "final")])
        try write("final/sub/IMG_0001.jpg")
        XCTAssertEqual(try changes(watcher), [.changed(set: "final")])
    }

    func testWaitForChanges_looseFilesAndHiddenFoldersInTheInbox_areNotSets() throws {
        let watcher = try makeWatcher()
        try write("loose.jpg")
        try makeFolder(".partial")
        try write(".partial/IMG_0001.jpg")
        XCTAssertEqual(try changes(watcher), [])
    }

    func testWaitForChanges_folderMovedInFromOutside_isWatched() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let watcher = try makeWatcher()
        try FileManager.default.moveItem(at: outside, to: inbox.appendingPathComponent("moved"))
        XCTAssertEqual(try changes(watcher), [.changed(set: "moved")])
        try write("moved/sub/IMG_0001.jpg")
        XCTAssertEqual(try changes(watcher), [.changed(set: "moved")])
    }

    func testWake_returnsAWaitAtOnceWithoutChanges() throws {
        let watcher = try makeWatcher()
        watcher.wake()
        let started = Date()
        XCTAssertEqual(try watcher.waitForChanges(timeout: 10), [])
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }

    func testInit_missingInbox_throwsNamingTheFolder() {
        let missing = inbox.appendingPathComponent("nowhere").path
        XCTAssertThrowsError(try InboxWatcher(inbox: FilePath(missing), readyMarker: ".ready", logger: Logger(label: "test"))) {
            XCTAssertTrue("\($0)".hasPrefix("\(missing): cannot watch the inbox"), "\($0)")
        }
    }
}
