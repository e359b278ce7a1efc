import Catalog
import Foundation
import TestSupport
import Vocabulary
import XCTest

/// The `ingest` binary on the committed samples and on bad usage.
final class CommandTests: XCTestCase {
    /// A work folder holding a copy of samples/ as its inbox, with file times set to now (as after a
    /// clone), and the repository's pipeline.json.
    private func samplesWorkFolder() throws -> URL {
        let work = try TemporaryFolder.make("samples")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let samples = IngestHarness.packageRoot.appendingPathComponent("samples").path
        try IngestHarness.shell(
            "mkdir inbox && for s in '\(samples)'/*/; do cp -a \"$s\" inbox/; done && find inbox -type f -exec touch {} + "
                + "&& cp '\(IngestHarness.packageRoot.path)/pipeline.json' .",
            in: work)
        return work
    }

    func testRun_samples_producesTheDocumentedCaptures() throws {
        let work = try samplesWorkFolder()
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 1, "the bad-files set quarantines three files: \(run.stdout)")
        XCTAssertTrue(run.stdout.hasPrefix("sets 5, captures 7, photos 17, duplicates 0, quarantined 3, failed 0,"), run.stdout)
        for file in ["zz_truncated.jpg", "zz_empty.jpg", "not_a_photo.jpg"] {
            XCTAssertTrue(run.stdout.contains("bad-files/\(file): "), "\(file) reported: \(run.stdout)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("quarantine/bad-files/\(file).reason").path))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("inbox/bad-files/.DS_Store").path),
                      "hidden files are left alone")

        try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        XCTAssertEqual(try IngestHarness.ingest(["export", "--csv", "out/captures.csv"], in: work).status, 0)
        let score = ScoreReport(try IngestHarness.shell(
            "python3 '\(IngestHarness.shared.path)/bench/score.py' out '\(IngestHarness.packageRoot.path)/samples/expected.json'",
            in: work))
        XCTAssertEqual(score.percent("barcode recall"), 100, score.text)
        XCTAssertEqual(score.percent("exact captures"), 100, score.text)
        XCTAssertEqual(score.percent("captured_at ok"), 100, score.text)

        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        let formats = try catalogue.captures(matching: CaptureFilter(setName: "rotated-and-formats"))
        XCTAssertEqual(formats.count, 1, "PNG and WebP photos carry EXIF times and join the barcode photo")
        let photos = try catalogue.photos(ofCapture: try XCTUnwrap(formats.first).id)
        XCTAssertEqual(Set(photos.map(\.format)), [.jpeg, .png, .webp])
        XCTAssertTrue(photos.allSatisfy { $0.timeSource == .exif }, "\(photos.map(\.timeSource))")
        let rotated = try XCTUnwrap(photos.first { $0.orientation == 6 })
        XCTAssertGreaterThan(rotated.height, rotated.width, "orientation 6 is upright portrait")
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(barcode: "0383935678262")).count, 1,
                       "UPC-A found by its GTIN-13")
    }

    func testExport_toStandardOutput_writesHeaderAndOneRowPerCapture() throws {
        let work = try samplesWorkFolder()
        try IngestHarness.ingest(["run", "--quiet"], in: work)
        let export = try IngestHarness.ingest(["export", "--csv", "-"], in: work)
        XCTAssertEqual(export.status, 0, export.stderr)
        let lines = export.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init),
                       "capture_id,set_name,barcode,symbology,gtin13,captured_at,time_source,photo_count,photos,rating,quality,thumbnail,originals,thumbnails,agent_id,agent_name,request_id,note,"
                        + "product_name,brands,quantity,energy_kcal_100g,nutriscore_grade,nutrition_source,addon,name_from_package")
        XCTAssertEqual(lines.count, 8, "a header and 7 captures")
    }

    func testRun_unknownConfigKey_exits64NamingTheKey() throws {
        let work = try TemporaryFolder.make("config")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.writeConfig(["inbox": "inbox", "thumbnailWidht": 400], in: work)
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("pipeline.json: thumbnailWidht unknown key"), run.stderr)
    }

    func testRun_badValue_exits64NamingKeyAndRange() throws {
        let work = try TemporaryFolder.make("config")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.writeConfig(["thumbnailWidth": 0], in: work)
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("thumbnailWidth must be 16…4096, got 0"), run.stderr)
    }

    func testRun_missingInbox_exits64NamingTheFolder() throws {
        let work = try TemporaryFolder.make("config")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.writeConfig(["inbox": "nowhere"], in: work)
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("nowhere"), run.stderr)
    }

    func testRun_emptyInbox_exits0WithZeroSummary() throws {
        let work = try TemporaryFolder.make("empty")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try IngestHarness.writeConfig([:], in: work)
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("sets 0, captures 0, photos 0,"), run.stdout)
    }
}
