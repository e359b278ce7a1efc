import Foundation
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest
import Catalog
import SystemPackage

/// The pieces of an upload that need no server: what counts as a photo by its bytes, the names a
/// client's file names become, the staging folder's commit, discard and sweep, and what the status
/// of an uploaded set says.
final class UploadStagingTests: XCTestCase {
    func testSignature_knowsEachFormatByItsFirstBytes_andNothingElse() {
        let cases: [([UInt8], ImageFormat?)] = [
            ([0xFF, 0xD8, 0xFF, 0xE1, 0, 0], .jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
            (Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBP".utf8), .webp),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
            ([0, 0, 0, 24] + Array("ftypheic".utf8), .heif),
            ([0, 0, 0, 28] + Array("ftypmif1".utf8), .heif),
            ([0, 0, 0, 24] + Array("ftypisom".utf8), nil),  // an MP4 video
            (Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8), nil),
            (Array("GIF89a".utf8), nil),
            (Array("%PDF-1.7".utf8), nil),
            ([0xFF, 0xD8], nil),  // too short to be a JPEG
            ([], nil),
        ]
        for (bytes, format) in cases {
            XCTAssertEqual(PhotoSignature.format(of: bytes), format, "\(bytes)")
        }
    }

    func testFileName_keepsTheLastComponent_dropsWhatCouldHarm_andRenamesClashes() {
        var taken: Set<String> = []
        let cases: [(String, String)] = [
            ("IMG_0001.JPG", "IMG_0001.JPG"),
            ("img_0001.jpg", "img_0001 (2).jpg"),
            ("../../etc/passwd", "passwd"),
            ("C:\\Users\\me\\IMG_7.heic", "IMG_7.heic"),
            (".hidden.jpg", "hidden.jpg"),
            ("...", "photo"),
            ("", "photo (2)"),
            ("a\u{0}b\u{1B}[31mc\u{202E}gpj.exe", "ab[31mcgpj.exe"),
            ("line\nbreak.png", "linebreak.png"),
            ("capture.json", "capture (2).json"),
            ("photo", "photo (3)"),
        ]
        for (sent, expected) in cases {
            XCTAssertEqual(UploadFileName.clean(sent, taken: &taken), expected, sent.debugDescription)
        }
        let long = UploadFileName.clean(String(repeating: "é", count: 300) + ".jpg", taken: &taken)
        XCTAssertLessThanOrEqual(long.utf8.count, 255)
        XCTAssertTrue(long.hasSuffix(".jpg"), long)
    }

    func testCommit_putsTheWholeSetWithItsMarkerIntoTheInbox_andDiscardLeavesNothing() throws {
        let folder = try TemporaryFolder.make("upload-staging")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(in: folder)
        let staging = UploadStaging(config: config)

        let upload = try staging.begin()
        XCTAssertTrue(UploadedSet.isUploadName(upload.name), upload.name)
        XCTAssertEqual(try upload.startPhoto(clientName: "a.jpg"), "a.jpg")
        try Self.append([0xFF, 0xD8, 0xFF, 1, 2, 3], to: upload)
        XCTAssertEqual(try upload.startPhoto(clientName: "a.jpg"), "a (2).jpg")
        try Self.append([0xFF, 0xD8, 0xFF, 4], to: upload)
        try upload.write(CaptureContext(agentId: "chef", agentName: "Practical Chef", requestId: "r-1"))
        XCTAssertEqual(try Self.sets(in: config.inbox), [], "nothing in the inbox before the commit")
        try upload.commit()
        XCTAssertEqual(try Self.sets(in: config.inbox), [upload.name])
        let files = try FileManager.default.contentsOfDirectory(atPath: upload.inboxFolder.string).sorted()
        XCTAssertEqual(files, [".ready", "a (2).jpg", "a.jpg", "capture.json"])
        XCTAssertEqual(try CaptureContext.load(path: upload.inboxFolder.appending("capture.json")),
                       CaptureContext(agentId: "chef", agentName: "Practical Chef", requestId: "r-1"))
        XCTAssertEqual(upload.bytesWritten, 10)

        let cut = try staging.begin()
        _ = try cut.startPhoto(clientName: "b.jpg")
        try Self.append([0xFF, 0xD8, 0xFF], to: cut)
        cut.discard()
        XCTAssertEqual(try Self.sets(in: config.inbox), [upload.name], "a discarded set never reaches the inbox")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging.ownFolder.string), [])
    }

    func testSweep_removesTheFoldersNoServerHoldsLocked_whateverTheirNames() throws {
        let folder = try TemporaryFolder.make("upload-sweep")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let staging = UploadStaging(config: try Self.config(in: folder))
        func stage(_ server: String) throws {
            let set = "\(staging.root)/\(server)/upload-20260101-000000-00000000"
            try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: set + "/x.jpg", contents: Data([1]))
        }
        // A running server: another process holds its folder locked (flock(1), as a server does).
        try stage("running")
        let running = Process()
        running.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        running.arguments = ["\(staging.root)/running", "sleep", "30"]
        try running.run()
        addTeardownBlock { running.terminate() }
        try Self.waitUntilLocked("\(staging.root)/running")
        // A server that is gone, and one named by the process id of a process that runs but holds
        // no lock (an id reused, or another container's server of the same id): neither is locked.
        try stage("gone")
        try stage("\(running.processIdentifier)")
        _ = try staging.begin()  // this process's own folder: locked while it runs

        XCTAssertEqual(try staging.sweep(), 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging.root.string).sorted(),
                       [staging.ownFolder.lastComponent?.string ?? "", "running"].sorted())
    }

    /// Waits until another process holds `path` locked (`flock -n` fails).
    private static func waitUntilLocked(_ path: String) throws {
        for _ in 0 ..< 200 {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            probe.arguments = ["-n", path, "true"]
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus != 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("\(path) was never locked")
    }

    func testSpace_refusedWhenTheUploadWouldEatIntoTheMargin() throws {
        let folder = try TemporaryFolder.make("upload-space")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var config = try Self.config(in: folder)
        config.minFreeMB = 0
        XCTAssertNoThrow(try UploadStaging(config: config).checkSpace(for: 1 << 20))
        config.minFreeMB = 100_000_000
        XCTAssertThrowsError(try UploadStaging(config: config).checkSpace(for: 0)) { error in
            XCTAssertEqual((error as? UploadRefusal)?.kind, .diskFull)
            XCTAssertTrue("\(error)".contains("minFreeMB"), "\(error)")
        }
    }

    func testStatus_readsTheReasonsOfPhotosSetAside_andLooksUpOnlyUploadNames() throws {
        let folder = try TemporaryFolder.make("upload-status")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let quarantine = folder.appendingPathComponent("quarantine").path
        let name = "upload-20261126-101500-0a1b2c3d"
        for (sub, file, reason) in [("", "bad.jpg", "truncated or corrupt image"), ("duplicates/", "same.jpg", "same bytes as x")] {
            try FileManager.default.createDirectory(atPath: "\(quarantine)/\(sub)\(name)", withIntermediateDirectories: true)
            try "file: \(name)/\(file)\nreason: \(reason)\nat: now\n".write(toFile: "\(quarantine)/\(sub)\(name)/\(file).reason",
                                                                           atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(UploadedSet.setAside(name, in: FilePath(quarantine)), [
            .init(file: "bad.jpg", reason: "truncated or corrupt image"), .init(file: "same.jpg", reason: "same bytes as x"),
        ])
        for name in ["../quarantine", "upload-20261126-101500-0A1B2C3D", "upload-20261126-101500-0a1b2c3d/..", "set"] {
            XCTAssertFalse(UploadedSet.isUploadName(name), name)
        }
    }

    /// Between the commit of an uploaded set and the watch clearing its folder (the ready marker,
    /// then the emptied folder), the status says `ingesting`: `ingested` is final, the set gone
    /// from the inbox. (A client that read `ingested` once found the folder still there.)
    func testStatus_whileTheWatchHoldsTheSet_isIngestingEvenWithItsCapturesCommitted() throws {
        let work = try SampleLibrary(for: self)
        let name = "upload-20261126-101500-3f9a0c1e"
        try FileManager.default.moveItem(at: work.inbox.appendingPathComponent("single-product"), to: work.folder.appendingPathComponent(name))
        try FileManager.default.removeItem(at: work.inbox)
        try FileManager.default.createDirectory(at: work.inbox, withIntermediateDirectories: false)
        try FileManager.default.moveItem(at: work.folder.appendingPathComponent(name), to: work.inbox.appendingPathComponent(name))
        XCTAssertEqual(try work.ingest(["run", "--quiet"]).status, 0)
        let config = try PipelineConfig.load(path: FilePath(work.folder.appendingPathComponent("pipeline.json").path))
        // What the watch still has to remove once the run returns.
        try FileManager.default.createDirectory(at: work.inbox.appendingPathComponent(name), withIntermediateDirectories: false)
        try Data().write(to: work.inbox.appendingPathComponent("\(name)/\(config.readyMarker)"))
        let catalogue = try work.catalogue()
        defer { try? catalogue.close() }
        let during = try XCTUnwrap(try UploadedSet.look(name, config: config, catalogue: catalogue) { $0 == name })
        XCTAssertEqual(during.state, .ingesting)
        let after = try XCTUnwrap(try UploadedSet.look(name, config: config, catalogue: catalogue) { _ in false })
        XCTAssertEqual(after.state, .ingested)
        XCTAssertEqual(after.captures.count, 1)
    }

    func testConfig_readsTheUploadKeys_andRefusesOutOfRangeValues() throws {
        let config = try PipelineConfig.parse(Data(#"{"uploadMaxFileMB": 8, "uploadMaxRequestMB": 100, "uploadMaxFiles": 3, "uploadIdleSeconds": 5}"#.utf8),
                                              file: "p.json", folder: "/tmp")
        XCTAssertEqual(config.upload.maxFileBytes, 8 << 20)
        XCTAssertEqual(config.upload.maxRequestBytes, 100 << 20)
        XCTAssertEqual(config.upload.maxFiles, 3)
        XCTAssertEqual(config.upload.idleSeconds, 5)
        XCTAssertEqual(PipelineConfig(folder: "/tmp").upload, UploadLimits())
        XCTAssertThrowsError(try PipelineConfig.parse(Data(#"{"uploadMaxFiles": 0, "uploadIdleSeconds": "x"}"#.utf8), file: "p.json", folder: "/tmp")) {
            XCTAssertTrue("\($0)".contains("uploadMaxFiles") && "\($0)".contains("uploadIdleSeconds"), "\($0)")
        }
    }

    private static func config(in folder: URL) throws -> PipelineConfig {
        var config = PipelineConfig(folder: FilePath(folder.path))
        config.minFreeMB = 0
        try FileManager.default.createDirectory(atPath: config.inbox.string, withIntermediateDirectories: true)
        return config
    }

    private static func append(_ bytes: [UInt8], to upload: StagedUpload) throws {
        try bytes.withUnsafeBytes { try upload.append($0) }
    }

    /// The set folders a run would see: the inbox's folders that are not hidden.
    private static func sets(in inbox: FilePath) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: inbox.string).filter { !$0.hasPrefix(".") }.sorted()
    }
}
