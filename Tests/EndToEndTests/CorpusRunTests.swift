import Catalog
import Foundation
import TestSupport
import XCTest

/// `ingest run` and `ingest export` on a corpus from `../shared/corpus/gen_corpus.py`, scored by
/// `../shared/bench/score.py`: the acceptance run of the core issue, at CI size.
final class CorpusRunTests: XCTestCase {
    /// The generated corpus, made once for the class: `inbox/` stays pristine, runs work on copies.
    nonisolated(unsafe) private static var corpus: URL?

    override class func setUp() {
        super.setUp()
        corpus = TemporaryFolder.prepared("corpus") { folder in
            IngestHarness.generateCorpus(into: folder, ["--sets", "30", "--seed", "5", "--width", "1008", "--height", "756",
                                                        "--bad", "--bomb"])
        }
    }

    override class func tearDown() {
        if let corpus { try? FileManager.default.removeItem(at: corpus) }
        super.tearDown()
    }

    private func corpusFolder() throws -> URL {
        try XCTUnwrap(Self.corpus, "gen_corpus.py could not make the corpus (needs ../shared and the pip packages)")
    }

    /// A work folder with a copy of the corpus inbox and a config pointing at it; the copy keeps
    /// the files' times unless `keepingTimes` is false.
    private func workFolder(originals: String = "move", keepingTimes: Bool = true) throws -> URL {
        let work = try TemporaryFolder.make("run")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.shell("cp \(keepingTimes ? "-a" : "-r") '\(try corpusFolder().path)/inbox' inbox", in: work)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                       "quarantine": "quarantine", "originals": originals], in: work)
        return work
    }

    func testRun_generatedCorpus_meetsTheScoreTargets() throws {
        let work = try workFolder()
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 1, "bad files were quarantined, so the run must exit 1: \(run.stdout)\(run.stderr)")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        let export = try IngestHarness.ingest(["export", "--csv", "out/captures.csv"], in: work)
        XCTAssertEqual(export.status, 0, export.stderr)

        let score = try IngestHarness.shell(
            "python3 '\(IngestHarness.shared.path)/bench/score.py' out '\(try corpusFolder().path)/expected.json'", in: work)
        let scores = ScoreReport(score)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(scores.percent("barcode recall")), 90, score)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(scores.percent("grouping accuracy")), 95, score)
        XCTAssertEqual(try XCTUnwrap(scores.percent("captured_at ok")), 100, score)
        XCTAssertEqual(scores.count("wrong barcodes"), 0, score)
        XCTAssertEqual(scores.count("non-product photos"), 0, score)
    }

    /// Copied without its times (as `cp -r`, an upload or a sync leaves a folder), every file time is
    /// the copy's: the photos whose EXIF has no time (eleven here) must still join their captures by name.
    func testRun_generatedCorpusCopiedWithoutItsFileTimes_groupsItsPhotosWithoutExifTimeByName() throws {
        let work = try workFolder(keepingTimes: false)
        try IngestHarness.ingest(["run"], in: work)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        XCTAssertEqual(try IngestHarness.ingest(["export", "--csv", "out/captures.csv"], in: work).status, 0)
        let score = try IngestHarness.shell(
            "python3 '\(IngestHarness.shared.path)/bench/score.py' out '\(try corpusFolder().path)/expected.json'", in: work)
        let scores = ScoreReport(score)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(scores.percent("grouping accuracy")), 95, score)
        XCTAssertEqual(scores.count("wrong barcodes"), 0, score)
    }

    func testRun_generatedCorpus_accountsForEveryFileAndMakesUprightThumbnails() throws {
        let work = try workFolder()
        let expected = try ExpectedCorpus(try corpusFolder().appendingPathComponent("expected.json"))
        try IngestHarness.ingest(["run"], in: work)
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        let captures = try catalogue.captures()
        var catalogued: [String: Photo] = [:]
        for capture in captures {
            for photo in try catalogue.photos(ofCapture: capture.id) {
                catalogued["\(capture.setName)/\(photo.sourcePath)"] = photo
            }
        }
        XCTAssertEqual(catalogued.count, expected.photos.count, "every product photo catalogued once")
        let library = work.appendingPathComponent("library")
        for (path, upright) in expected.photos {
            let photo = try XCTUnwrap(catalogued[path], "\(path) is not in the catalogue")
            XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent(photo.originalPath).path))
            let size = try XCTUnwrap(try jpegFrameSize(of: library.appendingPathComponent(photo.thumbPath)))
            XCTAssertEqual(size.width, 400, "\(path) thumbnail width")
            XCTAssertEqual(size.height > size.width, upright == "portrait", "\(path) thumbnail must be \(upright)")
            XCTAssertEqual(photo.thumbWidth, size.width)
            XCTAssertEqual(photo.thumbHeight, size.height)
        }
        for reject in expected.rejects {
            let inQuarantine = work.appendingPathComponent("quarantine/\(reject)")
            if (reject as NSString).lastPathComponent.hasPrefix(".") {
                XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("inbox/\(reject)").path),
                              "hidden \(reject) must be left in the inbox")
            } else {
                XCTAssertTrue(IngestHarness.files(under: work.appendingPathComponent("quarantine")).contains(reject),
                              "\(reject) must be quarantined")
                XCTAssertTrue(FileManager.default.fileExists(atPath: inQuarantine.path + ".reason"), "\(reject) needs a .reason")
            }
        }
        for duplicate in expected.duplicates {
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("quarantine/duplicates/\(duplicate)").path),
                          "\(duplicate) must be kept aside as a duplicate")
        }
        let leftInInbox = IngestHarness.files(under: work.appendingPathComponent("inbox"))
        XCTAssertTrue(leftInInbox.allSatisfy { ($0 as NSString).lastPathComponent.hasPrefix(".") },
                      "only hidden files stay in the inbox, found \(leftInInbox)")

        let hashes = try IngestHarness.shell(
            "sha256sum " + catalogued.values.map { "'library/\($0.originalPath)'" }.joined(separator: " "), in: work)
        let byPath = Dictionary(uniqueKeysWithValues: hashes.split(separator: "\n").map {
            (String($0.dropFirst(66).dropFirst("library/".count)), String($0.prefix(64)))
        })
        for photo in catalogued.values {
            XCTAssertEqual(byPath[photo.originalPath], photo.sha256, "\(photo.originalPath) content must match its hash")
        }
    }

    func testRun_freshCopyOfSameInbox_addsNothingAndReportsEveryPhotoAsDuplicate() throws {
        let work = try workFolder()
        try IngestHarness.ingest(["run"], in: work)
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        let before = try catalogue.counts()

        try IngestHarness.shell("rm -rf inbox && cp -a '\(try corpusFolder().path)/inbox' inbox", in: work)
        let again = try IngestHarness.ingest(["run"], in: work)
        let after = try catalogue.counts()
        XCTAssertEqual(after.captures, before.captures)
        XCTAssertEqual(after.photos, before.photos)
        let expected = try ExpectedCorpus(try corpusFolder().appendingPathComponent("expected.json"))
        // Every product photo, plus the corpus' own byte-identical copy, is a duplicate the second time.
        XCTAssertTrue(again.stdout.contains("duplicates \(expected.photos.count + expected.duplicates.count),"),
                      again.stdout)
        XCTAssertTrue(again.stdout.contains("captures 0,"), again.stdout)
    }

    func testRun_copyMode_leavesInboxAndSecondRunIsClean() throws {
        let work = try workFolder(originals: "copy")
        try IngestHarness.ingest(["run"], in: work)
        let expected = try ExpectedCorpus(try corpusFolder().appendingPathComponent("expected.json"))
        let inbox = Set(IngestHarness.files(under: work.appendingPathComponent("inbox")))
        XCTAssertTrue(Set(expected.photos.keys).isSubset(of: inbox), "copy mode keeps every original in the inbox")

        let second = try IngestHarness.ingest(["run"], in: work)
        XCTAssertTrue(second.stdout.contains("captures 0,"), second.stdout)
        XCTAssertTrue(second.stdout.contains("duplicates 0,"), "already-copied photos are not duplicates: \(second.stdout)")
    }
}

/// The numbers `score.py` prints.
struct ScoreReport {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    /// The percentage on the line starting with `label` ("barcode recall      43/43  100.0%").
    func percent(_ label: String) -> Double? {
        guard let line = line(label), let token = line.split(separator: " ").first(where: { $0.hasSuffix("%") }) else {
            return nil
        }
        return Double(token.dropLast())
    }

    /// The first number after `label`.
    func count(_ label: String) -> Int? {
        guard let line = line(label) else { return nil }
        return line.dropFirst(label.count).split(separator: " ").first.flatMap { Int($0) }
    }

    private func line(_ label: String) -> Substring? {
        text.split(separator: "\n").first { $0.hasPrefix(label) }
    }
}

/// What `expected.json` says must become of each file.
struct ExpectedCorpus {
    /// `set/file` of each product photo, with "portrait" or "landscape".
    var photos: [String: String] = [:]
    /// `set/file` of files that must be quarantined (or, when hidden, left alone).
    var rejects: [String] = []
    /// `set/file` of byte-identical copies.
    var duplicates: [String] = []

    init(_ url: URL) throws {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        for set in try XCTUnwrap(root["sets"] as? [[String: Any]]) {
            let name = try XCTUnwrap(set["name"] as? String)
            for capture in set["captures"] as? [[String: Any]] ?? [] {
                for (file, upright) in capture["upright"] as? [String: String] ?? [:] {
                    photos["\(name)/\(file)"] = upright
                }
            }
            rejects += (set["rejects"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }.map { "\(name)/\($0)" }
            duplicates += (set["duplicates"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }.map { "\(name)/\($0)" }
        }
    }
}
