import Foundation
import FileSystem
@testable import Imaging
@testable import Pipeline
import XCTest
import TestSupport
import Catalog
import SystemPackage

final class PhotoSetTests: XCTestCase {
    private var inbox = FilePath()

    override func setUpWithError() throws {
        inbox = FilePath(try makeTemporaryFolder())
    }

    private func path(_ relative: String) -> FilePath {
        inbox.appending(relative)
    }

    private func link(_ relative: String, to destination: FilePath) throws {
        try FileManager.default.createSymbolicLink(atPath: path(relative).string, withDestinationPath: destination.string)
    }

    private func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative).string, withIntermediateDirectories: true)
    }

    func testSets_listOnlyVisibleSubFoldersSortedByName() throws {
        for file in ["zeta/a.jpg", "alpha/a.jpg", "Mid/a.jpg", ".hidden-set/a.jpg", "loose.jpg"] {
            try writeFile(file, in: inbox.string)
        }
        try makeFolder("empty")
        try makeFolder("elsewhere/real")
        try writeFile("elsewhere/real/a.jpg", in: inbox.string)
        try link("linked-set", to: path("elsewhere/real"))

        let sets = try PhotoSet.sets(inInbox: inbox)
        XCTAssertEqual(sets.map(\.name), ["Mid", "alpha", "elsewhere", "empty", "zeta"],
                       "no hidden folder, no loose file, no linked folder")
        XCTAssertEqual(sets.map(\.folder), sets.map { path($0.name) })
        XCTAssertEqual(sets.first { $0.name == "empty" }?.files, [])
    }

    func testSet_nestedFiles_haveRelativePathsSortedAndCarryTheSetName() throws {
        for file in ["b.jpg", "sub/a.jpg", "a.jpg", "sub/deeper/c.jpg"] {
            try writeFile("shelf/" + file, in: inbox.string)
        }
        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["a.jpg", "b.jpg", "sub/a.jpg", "sub/deeper/c.jpg"])
        XCTAssertEqual(set.files.map(\.absolutePath), set.files.map { path("shelf/" + $0.relativePath) })
        XCTAssertEqual(Set(set.files.map(\.setName)), ["shelf"])
        XCTAssertEqual(set.files.last?.name, "c.jpg")
        XCTAssertEqual(set.ignored, [])
    }

    func testSet_hiddenFilesAndFolders_areIgnoredNotListed() throws {
        for file in ["a.jpg", ".DS_Store", "sub/.hidden.jpg", "sub/b.jpg", ".cache/inside.jpg"] {
            try writeFile("shelf/" + file, in: inbox.string)
        }
        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["a.jpg", "sub/b.jpg"])
        XCTAssertEqual(set.ignored.sorted(), [".DS_Store", ".cache", "sub/.hidden.jpg"],
                       "a hidden folder is ignored whole, its contents are not looked at")
    }

    func testSets_libraryAndQuarantineMadeInsideTheInbox_areNeverWalked() throws {
        // Made inside the inbox after the configuration was checked: found by what they are, not by name.
        try writeFile("shelf/a.jpg", in: inbox.string)
        try writeFile("lib/catalog.sqlite", in: inbox.string)
        try writeFile("shelf/q/shelf/a.jpg", in: inbox.string)
        var config = PipelineConfig(folder: inbox)
        config.library = path("lib")
        config.quarantine = path("shelf/q")
        let sets = try PhotoSet.sets(inInbox: inbox, keepingOut: KeptOutFolders(config))
        XCTAssertEqual(sets.map(\.name), ["lib", "shelf"])
        XCTAssertEqual(sets[0].files.map(\.relativePath), [])
        XCTAssertEqual(sets[0].skipped.map(\.path), ["lib/"])
        XCTAssertTrue(sets[0].skipped.first?.reason.contains("this is the library folder") ?? false)
        XCTAssertEqual(sets[1].files.map(\.relativePath), ["a.jpg"], "the quarantine's copy of the set is not listed again")
        XCTAssertEqual(sets[1].skipped.map(\.path), ["shelf/q/"])
        XCTAssertTrue(sets[1].skipped.first?.reason.contains("this is the quarantine folder") ?? false)
        // A link to the library is a file that is not followed, as every link is; the real folder elsewhere is walked.
        try link("shelf/to-lib", to: path("lib"))
        XCTAssertEqual(try PhotoSet(name: "shelf", folder: path("shelf"), keepingOut: KeptOutFolders(config)).files.map(\.relativePath),
                       ["a.jpg", "to-lib"])
        XCTAssertEqual(try PhotoSet.sets(inInbox: inbox, keepingOut: .none).first?.skipped, [], "without kept-out folders, all is walked")
    }

    func testSet_symbolicLinks_areListedAsFilesAndNotFollowed() throws {
        try writeFile("shelf/a.jpg", in: inbox.string)
        try writeFile("outside/x.jpg", in: inbox.string)
        try writeFile("outside/y.jpg", in: inbox.string)
        try link("shelf/to-file.jpg", to: path("outside/x.jpg"))
        try link("shelf/to-folder", to: path("outside"))
        try link("shelf/dangling.jpg", to: path("nowhere.jpg"))

        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["a.jpg", "dangling.jpg", "to-file.jpg", "to-folder"])
        XCTAssertEqual(set.files.first { $0.relativePath == "to-folder" }?.absolutePath, path("shelf/to-folder"),
                       "the link itself, not what it points at")
    }

    func testSet_fifo_isListedAsFile() throws {
        try makeFolder("shelf")
        XCTAssertEqual(mkfifo(path("shelf/pipe.jpg").string, 0o644), 0)
        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["pipe.jpg"], "special files are listed to be quarantined")
    }

    func testSet_nameNotUTF8_isSkippedWithAReadableNameAndReason() throws {
        try writeFile("shelf/good.jpg", in: inbox.string)
        let raw = Array(path("shelf/bad").string.utf8) + [0xFF] + Array(".jpg".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)

        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["good.jpg"])
        XCTAssertEqual(set.ignored, [])
        XCTAssertEqual(set.skipped.map(\.path), ["shelf/bad\\xFF.jpg"])
        XCTAssertEqual(set.skipped.map(\.keptAt), [path("shelf/bad\\xFF.jpg").string])
        XCTAssertTrue(set.skipped[0].reason.contains("not valid UTF-8"), set.skipped[0].reason)
    }

    func testSets_setFolderNameNotUTF8_isASetThatReportsItselfSkipped() throws {
        try writeFile("good/a.jpg", in: inbox.string)
        let raw = Array(path("caf").string.utf8) + [0xE9] + [0]
        XCTAssertEqual(raw.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }, 0)

        let sets = try PhotoSet.sets(inInbox: inbox)
        XCTAssertEqual(sets.map(\.name), ["caf\\xE9", "good"])
        XCTAssertEqual(sets[0].files, [])
        XCTAssertEqual(sets[0].skipped.map(\.path), ["caf\\xE9"])
        XCTAssertTrue(sets[0].skipped[0].reason.contains("not valid UTF-8"), sets[0].skipped[0].reason)
    }

    func testSet_foldersDeeperThanLimit_areSkippedWithTrailingSlashAndReason() throws {
        let chain = (1 ... PhotoSet.maximumDepth).map { "d\($0)" }
        let lastListed = chain.dropLast().joined(separator: "/")
        let tooDeep = chain.joined(separator: "/")
        try writeFile("shelf/\(lastListed)/kept.jpg", in: inbox.string)
        try writeFile("shelf/\(tooDeep)/lost.jpg", in: inbox.string)

        let set = try PhotoSet(name: "shelf", folder: path("shelf"))
        XCTAssertEqual(set.files.map(\.relativePath), ["\(lastListed)/kept.jpg"])
        XCTAssertEqual(set.ignored, [])
        XCTAssertEqual(set.skipped.map(\.path), ["shelf/\(tooDeep)/"])
        XCTAssertTrue(set.skipped[0].reason.contains("deeper than 16"), set.skipped[0].reason)
    }

    func testSet_missingFolder_throwsNamingIt() {
        XCTAssertThrowsError(try PhotoSet(name: "gone", folder: path("gone"))) { error in
            let failure = error as? FileOperationError
            XCTAssertEqual(failure?.path, path("gone"))
            XCTAssertEqual(failure?.code, ENOENT)
        }
    }
}
