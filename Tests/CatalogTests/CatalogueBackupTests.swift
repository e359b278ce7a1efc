@testable import Catalog
import Foundation
import GRDB
import XCTest
import SystemPackage

final class CatalogueBackupTests: XCTestCase {
    private var folder = ""
    private var catalogue: Catalogue!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder()
        catalogue = try Catalogue(path: folder + "/catalog.sqlite", logger: testLogger)
    }

    func testBackup_copiesEveryRowIntoAFileThatOpensAlone() throws {
        try catalogue.commit(makeSet(captureId: "c1", photoCount: 3, firstSeed: 1))
        let counts = try catalogue.backup(to: FilePath(folder + "/copy.sqlite"))
        XCTAssertEqual([counts.captures, counts.photos, counts.hits], [1, 3, 3])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("copy") }, ["copy.sqlite"],
                       "no -wal beside the copy: the file alone is the catalogue")
        let copy = try Catalogue(path: folder + "/copy.sqlite", create: false, logger: testLogger)
        XCTAssertEqual(try copy.captures().map(\.id), ["c1"])
    }

    func testBackup_existingFile_isRefusedAndKept() throws {
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/copy.sqlite"))
        XCTAssertThrowsError(try catalogue.backup(to: FilePath(folder + "/copy.sqlite"))) { error in
            guard case .backupFailed? = error as? CatalogError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try String(contentsOfFile: folder + "/copy.sqlite", encoding: .utf8), "keep")
    }

    func testBackup_intoAFolderThatIsNotThere_saysSo_namingNoTemporaryFile() throws {
        let cases = [
            (folder + "/no/such/copy.sqlite", "its folder \(folder)/no/such does not exist"),
            (folder + "/catalog.sqlite/copy.sqlite", "\(folder)/catalog.sqlite is not a folder"),
            (folder, "it is a folder; name a file"),
        ]
        for (destination, reason) in cases {
            XCTAssertThrowsError(try catalogue.backup(to: FilePath(destination))) { error in
                guard case .backupFailed(let path, let said)? = error as? CatalogError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, destination)
                XCTAssertEqual(said, reason)
                XCTAssertFalse("\(error)".contains(".partial-"), "\(error)")
            }
        }
    }

    func testBackup_whileAnotherConnectionCommits_isOneConsistentSnapshot() throws {
        let writer = try Catalogue(path: folder + "/catalog.sqlite", logger: testLogger)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for index in 0 ..< 200 { try? writer.commit(makeSet(captureId: "c\(index)", photoCount: 2, firstSeed: 10 * index)) }
            done.signal()
        }
        var copies: [(captures: Int, photos: Int, hits: Int)] = []
        for index in 0 ..< 5 { copies.append(try catalogue.backup(to: FilePath(folder + "/copy-\(index).sqlite"))) }
        done.wait()
        for copy in copies {
            XCTAssertEqual(copy.photos, 2 * copy.captures, "whole sets only: \(copy)")
            XCTAssertEqual(copy.hits, copy.photos)
        }
        XCTAssertEqual(try catalogue.counts().captures, 200)
    }

    func testClose_removesTheWriteAheadLog() throws {
        try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/catalog.sqlite-wal"))
        try catalogue.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/catalog.sqlite-wal"), "checkpointed into the file")
        let reopened = try Catalogue(path: folder + "/catalog.sqlite", create: false, logger: testLogger)
        XCTAssertEqual(try reopened.counts().captures, 1)
    }

    func testClose_afterReadsOnOtherThreads_stillRemovesTheWriteAheadLog() throws {
        // Reads open read-only connections; the last of those to close cannot fold the log back,
        // and `ingest run` left a 4 KB catalog.sqlite beside its whole -wal.
        try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
        let catalogue = try XCTUnwrap(self.catalogue)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = try? catalogue.counts() }
        try catalogue.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/catalog.sqlite-wal"), "checkpointed into the file")
    }

    func testOpen_withoutCreate_refusesAMissingCatalogueAndMakesNothing() throws {
        XCTAssertThrowsError(try Catalogue(path: folder + "/none/catalog.sqlite", create: false, logger: testLogger)) { error in
            XCTAssertEqual(error as? CatalogError, .notFound(path: folder + "/none/catalog.sqlite"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/none"))
    }
}
