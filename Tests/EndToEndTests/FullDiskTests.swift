import Foundation
import TestSupport
import XCTest
import Catalog

/// `ingest run` when a write fails for lack of space, through each write path. The disk is made
/// "full" without root: `prlimit --fsize` caps the size of any file the run writes, and a write past
/// it fails with EFBIG (ingest ignores SIGXFSZ) as a write to a full disk fails with ENOSPC. The run
/// must stop with exit 1 and a message naming the file and the cause, commit nothing of the set in
/// hand, leave every inbox file as it was, and a later run with space must ingest everything.
final class FullDiskTests: XCTestCase {
    private let samples = IngestHarness.packageRoot.appendingPathComponent("samples")

    func testRun_thumbnailCannotBeStaged_stopsWithoutQuarantiningThePhoto() throws {
        // Thumbnails are never enlarged: asked for 2048 px, these 600–800 px photos keep their own
        // width, 70–96 KB as thumbnails; what the catalogue writes meanwhile stays far below.
        try assertStopsCleanly(limit: 60_000, settings: ["thumbnailWidth": 2048], naming: ["library/.staging/", "File too large"],
                               photos: 3) {
            try self.copySample("single-product", into: $0)
        }
    }

    func testRun_journalCannotBeWritten_stopsBeforePlacingAnything() throws {
        // Forty photos with long names make a journal of ~45 KB; tiny thumbnails stay far below the limit.
        try assertStopsCleanly(limit: 40_000, settings: ["thumbnailWidth": 16], naming: ["library/.journal/", "File too large"],
                               photos: 40) { inbox in
            let set = inbox.appendingPathComponent("many")
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            try IngestHarness.shell("python3 -c 'from PIL import Image; Image.new(\"RGB\", (64, 64), (90, 140, 200)).save(\"tiny.jpg\")'",
                                    in: inbox.deletingLastPathComponent())
            let photo = try Data(contentsOf: inbox.deletingLastPathComponent().appendingPathComponent("tiny.jpg"))
            for index in 0 ..< 40 {
                // Bytes after the JPEG's end marker are ignored by decoders but make each file unique.
                let name = String(format: "%03d-", index) + String(repeating: "long-name-", count: 20) + ".jpg"
                try (photo + Data("\(index)".utf8)).write(to: set.appendingPathComponent(name))
            }
        }
    }

    func testRun_originalCannotBeCopied_stopsAndRemovesThePartialCopy() throws {
        try assertStopsCleanly(limit: 40_000, settings: ["thumbnailWidth": 16, "originals": "copy"],
                               naming: ["library/originals/single-product/IMG_0001.jpg", "File too large"], photos: 3) {
            try self.copySample("single-product", into: $0)
        }
    }

    func testRun_catalogueCannotBeWritten_stopsAndRemovesWhatWasPlaced() throws {
        try assertStopsCleanly(limit: 40_000, settings: ["thumbnailWidth": 16],
                               naming: ["library/catalog.sqlite: cannot write the catalogue", "the disk is full or failing"],
                               photos: 7) {
            try self.copySample("shelf-dump", into: $0)
        }
    }

    func testRun_quarantineOnAnotherFileSystemCannotTakeTheFile_stopsAndTheNextRunFinishesTheMove() throws {
        let other = URL(fileURLWithPath: "/dev/shm")
        var shm = stat(), tmp = stat()
        guard stat(other.path, &shm) == 0, stat(NSTemporaryDirectory(), &tmp) == 0, shm.st_dev != tmp.st_dev,
              access(other.path, W_OK) == 0 else {
            throw XCTSkip("needs a writable /dev/shm on another file system than \(NSTemporaryDirectory()) for a move that copies")
        }
        let quarantine = other.appendingPathComponent("ingest-full-disk-\(UUID().uuidString.prefix(8))")
        addTeardownBlock { try? FileManager.default.removeItem(at: quarantine) }
        // The set is committed (nothing to insert) when its reject is moved: the journal stays for the next start.
        try assertStopsCleanly(limit: 100_000, settings: ["thumbnailWidth": 16, "quarantine": quarantine.path],
                               naming: ["\(quarantine.path)/notes/big.jpg", "File too large"], photos: 0,
                               leavesJournal: true) { inbox in
            let set = inbox.appendingPathComponent("notes")
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            try Data(String(repeating: "not a photo at all\n", count: 10_000).utf8).write(to: set.appendingPathComponent("big.jpg"))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: quarantine.appendingPathComponent("notes/big.jpg.reason").path))
    }

    /// Copies the sample set `name` into `inbox`.
    private func copySample(_ name: String, into inbox: URL) throws {
        try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: inbox.appendingPathComponent(name))
    }

    /// Runs `ingest run` with files capped at `limit` bytes on the inbox `fill` makes (the catalogue
    /// made beforehand, as it would be on a disk that filled up later) and checks the run stops
    /// cleanly with a message holding `naming`; then runs again without the cap and checks that
    /// everything is ingested: `photos` catalogued, the rest quarantined.
    private func assertStopsCleanly(limit: Int, settings: [String: Any], naming fragments: [String], photos: Int,
                                    leavesJournal: Bool = false, line: UInt = #line, fill: (URL) throws -> Void) throws {
        let work = try TemporaryFolder.make("full-disk")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                       "quarantine": "quarantine", "workers": 2].merging(settings) { _, new in new }, in: work)
        _ = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        try fill(inbox)
        let checksums = "cd inbox && find . -type f -print0 | sort -z | xargs -0 sha256sum"
        let before = try IngestHarness.shell(checksums, in: work)

        let full = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/prlimit"),
                                             ["--fsize=\(limit)", IngestHarness.binary.path, "run"], in: work)
        XCTAssertEqual(full.status, 1, "\(full.stdout)\(full.stderr)", line: line)
        XCTAssertTrue(full.stdout.contains("STOPPED before the end"), full.stdout, line: line)
        for fragment in fragments {
            XCTAssertTrue(full.stdout.contains(fragment), "\(fragment) in:\n\(full.stdout)", line: line)
        }
        XCTAssertEqual(try IngestHarness.shell(checksums, in: work), before, "every inbox file stays as it was", line: line)
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        XCTAssertEqual(try catalogue.counts().photos, 0, "nothing of the set in hand is committed", line: line)
        let left = try IngestHarness.libraryProblems(in: work).filter { !$0.hasPrefix("left in .staging") }
        XCTAssertEqual(left.map { $0.hasPrefix("left in .journal") }, leavesJournal ? [true] : [], "\(left)", line: line)

        let again = try IngestHarness.ingest(["run"], in: work)
        XCTAssertTrue([0, 1].contains(again.status), "\(again.stdout)\(again.stderr)", line: line)
        XCTAssertFalse(again.stdout.contains("STOPPED"), again.stdout, line: line)
        XCTAssertEqual(try catalogue.counts().photos, photos, again.stdout, line: line)
        if settings["originals"] as? String != "copy" {
            XCTAssertEqual(IngestHarness.files(under: inbox), [], "everything left the inbox", line: line)
        }
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [], line: line)
        XCTAssertEqual(try IngestHarness.ingest(["verify"], in: work).status, 0, line: line)
    }
}
