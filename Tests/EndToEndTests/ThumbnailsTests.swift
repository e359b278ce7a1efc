import Catalog
import Foundation
import TestSupport
import XCTest

/// `ingest thumbnails` on an ingested corpus of about 140 photos (gen_corpus.py, seed 3).
final class ThumbnailsTests: XCTestCase {
    /// The corpus and a work folder that ingested it, made once for the class; tests work on copies.
    nonisolated(unsafe) private static var corpus: URL?

    override class func setUp() {
        super.setUp()
        corpus = TemporaryFolder.prepared("thumbs-corpus") { folder in
            guard IngestHarness.generateCorpus(into: folder, ["--sets", "30", "--seed", "3", "--width", "1008",
                                                              "--height", "756"]) else { return false }
            let ingested = try? IngestHarness.execute(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", "mkdir work && cp -a inbox work/inbox && echo '{\"workers\": 1}' > work/pipeline.json "
                    + "&& cd work && '\(IngestHarness.binary.path)' run --quiet; test -f library/catalog.sqlite"],
                in: folder)
            return ingested?.status == 0 && FileManager.default.fileExists(atPath: folder.appendingPathComponent("work").path)
        }
    }

    override class func tearDown() {
        if let corpus { try? FileManager.default.removeItem(at: corpus) }
        super.tearDown()
    }

    /// A copy of the ingested work folder (library, catalogue, pipeline.json with one worker).
    private func ingestedCopy() throws -> URL {
        let corpus = try XCTUnwrap(Self.corpus, "gen_corpus.py or the first run failed (needs ../shared and the pip packages)")
        let work = try TemporaryFolder.make("thumbs")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.shell("cp -a '\(corpus.path)/work/.' .", in: work)
        return work
    }

    /// `set/file` → "portrait" or "landscape", as expected.json says each photo stands upright.
    private func uprights() throws -> [String: String] {
        try ExpectedCorpus(try XCTUnwrap(Self.corpus).appendingPathComponent("expected.json")).photos
    }

    /// Every catalogued photo with its thumbnail file's size read from the JPEG (nil when unreadable).
    private func thumbnails(in work: URL) throws -> [(photo: Photo, setName: String, size: (width: Int, height: Int)?)] {
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        return try catalogue.captures().flatMap { capture in
            try catalogue.photos(ofCapture: capture.id).map { photo in
                (photo, capture.setName, try? jpegFrameSize(of: work.appendingPathComponent("library/\(photo.thumbPath)")))
            }
        }
    }

    func testRegenerate_width480_makesEveryThumbnail480WideUprightAndRecordsIt() throws {
        let work = try ingestedCopy()
        let run = try IngestHarness.ingest(["thumbnails", "--regenerate", "--width", "480"], in: work)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)

        let upright = try uprights()
        let remade = try thumbnails(in: work)
        XCTAssertGreaterThanOrEqual(remade.count, 100)
        XCTAssertTrue(run.stdout.hasPrefix("thumbnails made \(remade.count), failed 0,"), run.stdout)
        for (photo, setName, size) in remade {
            let size = try XCTUnwrap(size, "\(photo.thumbPath) is not a readable JPEG")
            XCTAssertEqual(size.width, 480, photo.thumbPath)
            XCTAssertEqual([photo.thumbWidth, photo.thumbHeight], [size.width, size.height], "recorded: \(photo.thumbPath)")
            let expected = try XCTUnwrap(upright["\(setName)/\(photo.sourcePath)"])
            XCTAssertEqual(size.height > size.width, expected == "portrait", "\(photo.thumbPath) must be \(expected)")
        }
        XCTAssertTrue(run.stderr.contains("progress"), "without a terminal, progress comes as log lines: \(run.stderr)")
        XCTAssertEqual(try IngestHarness.ingest(["verify"], in: work).status, 0)
    }

    func testRegenerate_killedHalfway_leavesOnlyWholeThumbnailsAndVerifyCleansUp() throws {
        let work = try ingestedCopy()
        let process = Process()
        process.executableURL = IngestHarness.binary
        process.arguments = ["thumbnails", "--regenerate", "--width", "480", "--quiet"]
        process.currentDirectoryURL = work
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(process.isRunning, "one worker needs several seconds for the corpus: the kill must land halfway")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        let halfway = try thumbnails(in: work)
        var widths: [Int: Int] = [:]
        for (photo, _, size) in halfway {
            let size = try XCTUnwrap(size, "\(photo.thumbPath) must be a whole JPEG")
            let bytes = [UInt8](try Data(contentsOf: work.appendingPathComponent("library/\(photo.thumbPath)")))
            XCTAssertEqual(Array(bytes.suffix(2)), [0xFF, 0xD9], "\(photo.thumbPath) ends like a whole JPEG")
            XCTAssertTrue([400, 480].contains(size.width), "\(photo.thumbPath) is the old or the new one")
            widths[size.width, default: 0] += 1
        }
        XCTAssertGreaterThan(widths[480] ?? 0, 0, "some were remade before the kill")
        XCTAssertGreaterThan(widths[400] ?? 0, 0, "some were not reached")

        XCTAssertEqual(try IngestHarness.ingest(["verify", "--repair", "--quiet"], in: work).status, 0)
        let leftovers = IngestHarness.files(under: work.appendingPathComponent("library/thumbs")).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [], "verify --repair sets temporary files aside")
        XCTAssertEqual(try IngestHarness.ingest(["thumbnails", "--regenerate", "--width", "480"], in: work).status, 0)
        XCTAssertTrue(try thumbnails(in: work).allSatisfy { $0.size?.width == 480 && $0.photo.thumbWidth == 480 })
        XCTAssertEqual(try IngestHarness.ingest(["verify"], in: work).status, 0)
    }

    func testMissing_remakesOnlyTheDeletedThumbnailsAtTheirRecordedWidth() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        XCTAssertEqual(try work.ingest(["thumbnails", "--regenerate", "--width", "320"]).status, 0)
        let photos = try work.catalogue().allPhotos()
        let gone = photos.prefix(3).map(\.thumbPath)
        let kept = photos.dropFirst(3).map(\.thumbPath)
        let keptBytes = try kept.map { try Data(contentsOf: work.library.appendingPathComponent($0)) }
        for path in gone { try FileManager.default.removeItem(at: work.library.appendingPathComponent(path)) }

        let missing = try work.ingest(["thumbnails", "--missing"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stdout.hasPrefix("thumbnails made 3, failed 0,"), missing.stdout)
        for path in gone {
            XCTAssertEqual(try jpegFrameSize(of: work.library.appendingPathComponent(path))?.width, 320, path)
        }
        XCTAssertEqual(try kept.map { try Data(contentsOf: work.library.appendingPathComponent($0)) }, keptBytes,
                       "the others are left alone")
        XCTAssertEqual(try work.ingest(["thumbnails"]).status, 64, "one of --regenerate and --missing is needed")
        XCTAssertEqual(try work.ingest(["thumbnails", "--regenerate", "--width", "8"]).status, 64)
    }
}
