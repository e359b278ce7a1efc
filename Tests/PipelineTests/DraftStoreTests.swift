import Foundation
import Logging
@testable import Pipeline
import SystemPackage
import TestSupport
import XCTest

/// `DraftStore` without a server: drafts outlive their store (a restart), are removed once idle for
/// `draftIdleMinutes` (and so are half-made or saved leftovers), are bounded per owner, and a save is
/// one set in the inbox with nothing left of the draft.
final class DraftStoreTests: XCTestCase {
    private let barcodePhoto = IngestHarness.packageRoot.appendingPathComponent("samples/single-product/IMG_0001.jpg")

    func testSweep_removesDraftsIdleForDraftIdleMinutes_andLeftovers_andKeepsTheRest() throws {
        let config = try makeConfig(draftIdleMinutes: 30)
        let start = Date()
        let old = try DraftStore(config: config, logger: logger).create(owner: "local", now: start)
        let store = try DraftStore(config: config, logger: logger)
        let fresh = try store.create(owner: "local", now: start.addingTimeInterval(20 * 60))
        XCTAssertEqual(try store.draft(old.id, owner: "local"), old, "a new store (a restarted server) keeps the drafts")
        // What a crash leaves: a draft half made, a draft whose set was already saved into the inbox, a stray file.
        let root = config.inbox.appending(".drafts")
        try FileManager.default.createDirectory(atPath: root.appending(".new-0123").string, withIntermediateDirectories: false)
        let saved = try store.create(owner: "local", now: start.addingTimeInterval(25 * 60))
        try FileManager.default.removeItem(atPath: root.appending(saved.id).appending("set").string)
        FileManager.default.createFile(atPath: root.appending("stray").string, contents: Data("x".utf8))

        XCTAssertEqual(try store.sweep(now: start.addingTimeInterval(31 * 60)), 4)
        XCTAssertThrowsError(try store.draft(old.id, owner: "local")) { XCTAssertEqual($0 as? DraftError, .notFound) }
        XCTAssertEqual(try store.draft(fresh.id, owner: "local").id, fresh.id, "touched 11 minutes ago: kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.string).sorted(), [".thumbnails", fresh.id])
    }

    func testCreate_isBoundedPerOwner_andOwnersDoNotSeeEachOthersDrafts() throws {
        let store = try DraftStore(config: makeConfig(), logger: logger)
        for _ in 0 ..< DraftStore.maximumDraftsPerOwner { _ = try store.create(owner: "session a") }
        XCTAssertThrowsError(try store.create(owner: "session a")) {
            XCTAssertEqual($0 as? DraftError, .tooMany(DraftStore.maximumDraftsPerOwner))
        }
        let other = try store.create(owner: "session b")
        XCTAssertEqual(store.drafts(of: "session b").map(\.id), [other.id])
        XCTAssertThrowsError(try store.draft(other.id, owner: "session a")) { XCTAssertEqual($0 as? DraftError, .notFound) }
        XCTAssertThrowsError(try store.cancel(other.id, owner: "session a"))
        XCTAssertThrowsError(try store.draft("../../etc/passwd", owner: "session b")) { XCTAssertEqual($0 as? DraftError, .notFound) }
    }

    func testSave_isOneSetInTheInboxWithItsReadyMarker_andTheDraftIsGone() throws {
        let config = try makeConfig()
        let store = try DraftStore(config: config, logger: logger)
        let draft = try store.create(owner: "local")
        let (upload, room) = try store.beginUpload(to: draft.id, owner: "local")
        XCTAssertEqual(room, config.upload.maxFiles)
        _ = try upload.startPhoto(clientName: "barcode.jpg")
        try Array(Data(contentsOf: barcodePhoto)).withUnsafeBytes { try upload.append($0) }
        try upload.finishPhoto()
        let read = try store.addPhotos(of: upload, as: .barcode, to: draft.id, owner: "local")
        XCTAssertEqual(read.codes.map(\.text), ["5902255046404"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: upload.folder.string), "the upload's own folder is removed")

        let set = try store.save(draft.id, owner: "local", context: CaptureContext(agentId: "chef"))
        let folder = config.inbox.appending(set).string
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
                       [config.readyMarker, "barcode.jpg", "capture.json"].sorted())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: config.inbox.appending(".drafts").string), [".thumbnails"])
        XCTAssertThrowsError(try store.save(draft.id, owner: "local", context: nil)) { XCTAssertEqual($0 as? DraftError, .notFound) }
    }

    private var logger: Logger {
        var logger = Logger(label: "draft-tests")
        logger.logLevel = .warning
        return logger
    }

    private func makeConfig(draftIdleMinutes: Int = 60) throws -> PipelineConfig {
        let folder = try TemporaryFolder.make("drafts")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var config = PipelineConfig(folder: FilePath(folder.path))
        config.minFreeMB = 0
        config.upload.draftIdleMinutes = draftIdleMinutes
        try FileManager.default.createDirectory(atPath: config.inbox.string, withIntermediateDirectories: true)
        return config
    }
}
