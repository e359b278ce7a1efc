import Foundation
import TestSupport
import XCTest
import Catalog

/// `ingest verify [--repair]` on the ingested samples, after damaging the library in the ways it must notice.
final class VerifyTests: XCTestCase {
    func testVerify_untouchedLibrary_exits0() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 0, verify.stdout)
        XCTAssertEqual(verify.stdout, "photos 17, files 34, problems 0, repaired 0, left 0\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.library.appendingPathComponent("catalog.sqlite-wal").path),
                       "run and verify closed the catalogue: its file alone is complete")
    }

    func testVerify_width_reportsThumbnailsOfAnotherWidthOnlyWhenAsked_andRepairRemakesThem() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let photos = try work.catalogue().allPhotos()
        XCTAssertEqual(Set(photos.map(\.thumbWidth)), [400], "the samples are all wider than 400 px")
        XCTAssertEqual(try work.ingest(["verify"]).status, 0, "without --width any recorded width is fine")
        let asked = try work.ingest(["verify", "--width", "300"])
        XCTAssertEqual(asked.status, 1)
        XCTAssertTrue(asked.stdout.hasSuffix("\nphotos 17, files 34, problems 17, repaired 0, left 17\n"), asked.stdout)
        XCTAssertTrue(asked.stdout.contains("wrong thumbnail       \(photos[0].thumbPath): 400 px wide, 300 asked for by --width"),
                      asked.stdout)
        XCTAssertEqual(try work.ingest(["verify", "--width", "300", "--repair"]).status, 0)
        XCTAssertEqual(Set(try work.catalogue().allPhotos().map(\.thumbWidth)), [300])
        XCTAssertEqual(try work.ingest(["verify", "--width", "300"]).status, 0)
        XCTAssertEqual(try work.ingest(["verify", "--width", "300", "--quick"]).status, 64)
    }

    func testVerify_damagedLibrary_reportsEachProblemAndRepairFixesWhatItCan() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let photos = try work.catalogue().allPhotos()
        let deletedOriginal = photos[0].originalPath
        let deletedThumbnail = photos[1].thumbPath
        let changedOriginal = photos[2].originalPath
        let stray = "originals/single-product/notes.txt"
        let file = { (path: String) in work.library.appendingPathComponent(path) }
        try FileManager.default.removeItem(at: file(deletedOriginal))
        try FileManager.default.removeItem(at: file(deletedThumbnail))
        let handle = try FileHandle(forWritingTo: file(changedOriginal))
        try handle.seekToEnd()
        handle.write(Data("x".utf8))
        try handle.close()
        try Data("stray".utf8).write(to: file(stray))
        // Not the library's business: staging, the catalogue's files and the lock.
        try Data("x".utf8).write(to: file(".staging/left-over.jpg"))

        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(verify.stdout.hasSuffix("\nphotos 17, files 33, problems 4, repaired 0, left 4\n"), verify.stdout)
        for line in ["missing original      \(deletedOriginal): the file is gone",
                     "missing thumbnail     \(deletedThumbnail): the file is gone",
                     "changed original      \(changedOriginal): its SHA-256 is no longer the catalogued \(photos[2].sha256)",
                     "unreferenced file     \(stray): no catalogue row references it"] {
            XCTAssertTrue(verify.stdout.contains(line), "\(line) in:\n\(verify.stdout)")
        }

        let repair = try work.ingest(["verify", "--repair"])
        XCTAssertEqual(repair.status, 1, "the originals cannot be repaired: \(repair.stdout)")
        XCTAssertTrue(repair.stdout.hasSuffix("\nphotos 17, files 33, problems 4, repaired 2, left 2\n"), repair.stdout)
        let thumbnail = try XCTUnwrap(try jpegFrameSize(of: file(deletedThumbnail)), "the thumbnail is made anew")
        XCTAssertEqual([thumbnail.width, thumbnail.height], [photos[1].thumbWidth, photos[1].thumbHeight])
        let setAside = work.quarantine.appendingPathComponent("unreferenced/\(stray)")
        XCTAssertEqual(try String(contentsOf: setAside, encoding: .utf8), "stray", "moved, never deleted")
        XCTAssertTrue(try String(contentsOf: setAside.appendingPathExtension("reason"), encoding: .utf8)
            .contains("no catalogue row references it"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file(stray).path))

        let again = try work.ingest(["verify"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stdout.hasSuffix("\nphotos 17, files 33, problems 2, repaired 0, left 2\n"), again.stdout)
        XCTAssertTrue(again.stdout.contains(deletedOriginal) && again.stdout.contains(changedOriginal), again.stdout)
    }

    func testVerify_thumbnailOfTheWrongSize_isReportedAndRemade() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let photo = try XCTUnwrap(try work.catalogue().allPhotos().first)
        let other = try XCTUnwrap(try work.catalogue().allPhotos().last { $0.thumbHeight != photo.thumbHeight })
        let thumbnail = work.library.appendingPathComponent(photo.thumbPath)
        try FileManager.default.removeItem(at: thumbnail)
        try FileManager.default.copyItem(at: work.library.appendingPathComponent(other.thumbPath), to: thumbnail)

        let verify = try work.ingest(["verify", "--repair"])
        XCTAssertEqual(verify.status, 0, verify.stdout)
        XCTAssertTrue(verify.stdout.contains("wrong thumbnail       \(photo.thumbPath): \(other.thumbWidth)×\(other.thumbHeight) on disk, "
            + "\(photo.thumbWidth)×\(photo.thumbHeight) catalogued -> made anew from the original"), verify.stdout)
        let size = try XCTUnwrap(try jpegFrameSize(of: thumbnail))
        XCTAssertEqual([size.width, size.height], [photo.thumbWidth, photo.thumbHeight])
    }

    /// 40,000 captures (120,000 photos) whose files are all missing, as on a library disk that is not
    /// mounted: every photo has two problems. Each is printed as found and memory does not grow with
    /// them (the earlier code held every problem and its line: 185 MB here, 220 MB at 100,000
    /// captures); the totals count every one.
    func testVerify_everyFileMissing_printsEachProblemOnceInBoundedMemory() throws {
        let work = try TemporaryFolder.make("verify-missing")
        defer { try? FileManager.default.removeItem(at: work) }
        let fill = IngestHarness.binary.deletingLastPathComponent().appendingPathComponent("scale-fill")
        let sample = IngestHarness.packageRoot.appendingPathComponent("samples/single-product/IMG_0001.jpg").path
        _ = try IngestHarness.shell("""
            '\(fill.path)' --catalog library/catalog.sqlite --library library --captures 40000 --no-files \
              --original '\(sample)' --thumbnail '\(sample)' --thumbnail-size 400x300 2>/dev/null && echo '{}' > pipeline.json
            """, in: work)
        for mode in [["--quick"], []] {
            // The peak resident memory of the child alone: getrusage of a Python parent with no other child.
            let command = ([IngestHarness.binary.path, "verify"] + mode).map { "'\($0)'" }.joined(separator: ", ")
            let measured = try IngestHarness.shell("""
                python3 -c "import resource, subprocess; code = subprocess.run([\(command)], stdout=open('out.txt', 'w')).returncode; \
                print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
                """, in: work).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            XCTAssertEqual(measured.first, 1, "\(mode): something is wrong")
            XCTAssertLessThan(measured.last ?? .max, 64 * 1024, "\(mode): peak RSS in KB")
            let lines = try String(contentsOf: work.appendingPathComponent("out.txt"), encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(lines.last, "photos 120000, files 0, problems 240000, repaired 0, left 240000", "\(mode)")
            XCTAssertEqual(lines.count, 240_001, "\(mode): one line per problem, then the totals")
            XCTAssertEqual(Set(lines.dropLast()).count, 240_000, "\(mode): each problem once")
            XCTAssertEqual(lines.filter { $0.hasPrefix("  missing original  ") }.count, 120_000, "\(mode)")
        }
    }
}
