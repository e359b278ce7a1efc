import Catalog
import Foundation
import TestSupport
import XCTest
import Vocabulary

/// `ingest run` on hostile inboxes, end to end through the built binary: every file ends catalogued,
/// quarantined with a reason, or left in place and reported — never a crash, never a hang (each run
/// has a time limit).
final class HostileInputTests: XCTestCase {
    /// The files below, made once for the class by Python.
    nonisolated(unsafe) private static var fixtures: URL?

    override class func setUp() {
        super.setUp()
        fixtures = TemporaryFolder.prepared("hostile-fixtures") { folder in
            let made = try? IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", fixtureScript, folder.path],
                                                  in: folder)
            return made?.status == 0
        }
    }

    override class func tearDown() {
        if let fixtures { try? FileManager.default.removeItem(at: fixtures) }
        super.tearDown()
    }

    // MARK: Broken files: quarantined with a reason

    func testRun_emptyFile_isQuarantinedAsEmpty() throws {
        try assertQuarantined("empty.jpg", reason: "empty file")
    }

    func testRun_truncatedJPEG_isQuarantinedAsTruncated() throws {
        try assertQuarantined("truncated.jpg", reason: "truncated or corrupt image")
    }

    func testRun_truncatedPNG_isQuarantinedAsTruncated() throws {
        try assertQuarantined("truncated.png", reason: "truncated or corrupt image")
    }

    func testRun_pngWithABadHeaderChecksum_isQuarantinedWithLibpngsReason() throws {
        // libvips passes libpng's reason on as a warning, not an error: once "unknown libvips error".
        try assertQuarantined("bad-crc.png", reason: "truncated or corrupt image: cannot read the image: IHDR: CRC error")
    }

    func testRun_textNamedJPG_isQuarantinedAsNotAnImage() throws {
        try assertQuarantined("text.jpg", reason: "not an image in a supported format")
    }

    func testRun_pngDeclaring40000x40000Pixels_isQuarantinedWithoutDecoding() throws {
        try assertQuarantined("bomb.png", reason: "too many pixels: 40000×40000 is over maxPixels 100000000")
    }

    /// Formats libvips could load through larger attack surfaces (librsvg, poppler, ImageMagick,
    /// giflib) are refused by the loader's name before anything is decoded.
    func testRun_gifSVGPDFAndBMP_areQuarantinedAsNotAnImage() throws {
        for name in ["image.gif", "drawing.svg", "document.pdf", "bitmap.bmp"] {
            try assertQuarantined(name, reason: "not an image in a supported format")
        }
    }

    // MARK: Corrupt EXIF: the pixels are still ingested

    func testRun_jpegsWithCorruptExif_areCataloguedFromTheirPixels() throws {
        let work = try workFolder()
        let names = ["exif-ifd-offset-past-end.jpg", "exif-huge-count.jpg", "exif-value-past-end.jpg", "exif-ifd-loop.jpg"]
        for name in names { try put(name, as: "shelf/\(name)", in: work) }
        let run = try ingest(work)
        XCTAssertEqual(run.status, 0, "\(run.stdout)\(run.stderr)")
        let photos = try catalogue(work).allPhotos()
        XCTAssertEqual(photos.map(\.sourcePath).sorted(), names.sorted())
        for photo in photos {
            XCTAssertEqual([photo.width, photo.height], [320, 240], photo.sourcePath)
            XCTAssertEqual(photo.timeSource, .fileTime, "\(photo.sourcePath): no usable EXIF time")
        }
        XCTAssertEqual(try IngestHarness.ingest(["verify"], in: work).status, 0)
    }

    // MARK: Names and folders

    func testRun_namesWithSpacesQuotesAndLineBreaks_areCataloguedUnderThoseNames() throws {
        let work = try workFolder()
        let paths = ["shelf 'one' \"two\"/with space.jpg", "shelf 'one' \"two\"/it's \"quoted\".jpg",
                     "shelf 'one' \"two\"/line\nbreak.jpg", "shelf 'one' \"two\"/sub\nfolder/tab\there.jpg"]
        for (index, path) in paths.enumerated() { try put("photo-\(index).jpg", as: path, in: work) }
        try put("text.jpg", as: "shelf 'one' \"two\"/not\na photo.jpg", in: work)
        let run = try ingest(work)
        XCTAssertEqual(run.status, 1, "\(run.stdout)\(run.stderr)")
        XCTAssertTrue(run.stdout.contains("  shelf 'one' \"two\"/not\\na photo.jpg: not an image"), "one line per file: \(run.stdout)")
        let catalogue = try catalogue(work)
        XCTAssertEqual(try catalogue.captures().map(\.setName), ["shelf 'one' \"two\""])
        XCTAssertEqual(try catalogue.allPhotos().map(\.sourcePath).sorted(), paths.map { String($0.dropFirst(18)) }.sorted())
        XCTAssertEqual(IngestHarness.files(under: work.appendingPathComponent("inbox")), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("quarantine/shelf 'one' \"two\"/not\na photo.jpg.reason").path))
        XCTAssertEqual(try IngestHarness.ingest(["verify"], in: work).status, 0)
        XCTAssertEqual(try IngestHarness.ingest(["export", "--csv", "out.csv"], in: work).status, 0)
    }

    func testRun_namesThatAreNotUTF8_areLeftInPlaceAndReportedWithTheirSet() throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "shelf/good.jpg", in: work)
        let badFile = Array("\(work.path)/inbox/shelf/bad".utf8) + [0xFF] + Array(".jpg".utf8)
        let badSet = Array("\(work.path)/inbox/caf".utf8) + [0xE9]
        try writeFixture("photo-1.jpg", to: badFile)
        XCTAssertEqual(withRawPath(badSet) { mkdir($0, 0o755) }, 0)
        try writeFixture("photo-2.jpg", to: badSet + Array("/inside.jpg".utf8))

        let run = try ingest(work)
        XCTAssertEqual(run.status, 1, "a human should look: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("skipped (left in the inbox):"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  shelf/bad\\xFF.jpg: the name is not valid UTF-8"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  caf\\xE9: the name is not valid UTF-8"), run.stdout)
        XCTAssertEqual(try catalogue(work).allPhotos().map(\.sourcePath), ["good.jpg"])
        XCTAssertTrue(exists(badFile), "left in place")
        XCTAssertTrue(exists(badSet + Array("/inside.jpg".utf8)), "left in place")
    }

    func testRun_foldersNestedTooDeep_areLeftInPlaceAndReported() throws {
        let work = try workFolder()
        let deep = (1 ... 17).map { "d\($0)" }.joined(separator: "/")
        try put("photo-0.jpg", as: "shelf/top.jpg", in: work)
        try put("photo-1.jpg", as: "shelf/\(deep)/deep.jpg", in: work)
        let run = try ingest(work)
        XCTAssertEqual(run.status, 1, run.stdout)
        XCTAssertTrue(run.stdout.contains("  shelf/\((1 ... 16).map { "d\($0)" }.joined(separator: "/"))/: folder nested deeper than 16 levels"),
                      run.stdout)
        XCTAssertEqual(try catalogue(work).allPhotos().map(\.sourcePath), ["top.jpg"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("inbox/shelf/\(deep)/deep.jpg").path))
    }

    // MARK: Links, FIFOs, permissions

    func testRun_symbolicLinkOutOfTheInbox_isQuarantinedAsTheLinkNeverFollowed() throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "outside.jpg", in: work, underInbox: false)
        try put("photo-1.jpg", as: "shelf/real.jpg", in: work)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("inbox/shelf/link.jpg").path,
                                                   withDestinationPath: work.appendingPathComponent("outside.jpg").path)
        try assertQuarantined("shelf/link.jpg", reason: "symbolic link (never followed)", in: work, photos: ["real.jpg"])
        let kept = try FileManager.default.destinationOfSymbolicLink(atPath: work.appendingPathComponent("quarantine/shelf/link.jpg").path)
        XCTAssertEqual(kept, work.appendingPathComponent("outside.jpg").path, "the link itself is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("outside.jpg").path), "its target untouched")
    }

    func testRun_hardLinkToAFileOutsideTheInbox_isCataloguedAndTheOutsideNameKept() throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "outside.jpg", in: work, underInbox: false)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox/shelf"), withIntermediateDirectories: true)
        XCTAssertEqual(link(work.appendingPathComponent("outside.jpg").path, work.appendingPathComponent("inbox/shelf/linked.jpg").path), 0)
        let run = try ingest(work)
        XCTAssertEqual(run.status, 0, "\(run.stdout)\(run.stderr)")
        XCTAssertEqual(try catalogue(work).allPhotos().map(\.sourcePath), ["linked.jpg"])
        // The library's original is the same file as the outside name, which stays where it was.
        var outside = stat(), original = stat()
        XCTAssertEqual(lstat(work.appendingPathComponent("outside.jpg").path, &outside), 0)
        XCTAssertEqual(lstat(work.appendingPathComponent("library/originals/shelf/linked.jpg").path, &original), 0)
        XCTAssertEqual(original.st_ino, outside.st_ino)
        XCTAssertFalse(exists(Array(work.appendingPathComponent("inbox/shelf/linked.jpg").path.utf8)))
    }

    func testRun_fifo_isQuarantinedWithoutBlocking() throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "shelf/real.jpg", in: work)
        XCTAssertEqual(mkfifo(work.appendingPathComponent("inbox/shelf/pipe.jpg").path, 0o644), 0)
        try assertQuarantined("shelf/pipe.jpg", reason: "not a regular file (FIFO)", in: work, photos: ["real.jpg"])
        var info = stat()
        XCTAssertEqual(lstat(work.appendingPathComponent("quarantine/shelf/pipe.jpg").path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
    }

    func testRun_fileWithoutReadPermission_isQuarantinedAsUnreadable() throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "shelf/secret.jpg", in: work)
        // Root reads any file whatever its permissions: as root (as in CI), the run is made by
        // `nobody`, who owns the work folder but may not read the file.
        let asRoot = geteuid() == 0
        if asRoot { try IngestHarness.shell("chown -R nobody:nogroup .", in: work) }
        XCTAssertEqual(chmod(work.appendingPathComponent("inbox/shelf/secret.jpg").path, 0), 0)
        try assertQuarantined("shelf/secret.jpg", reason: "cannot read: Permission denied", in: work,
                              asUser: asRoot ? "nobody" : nil)
    }

    // MARK: Hostile configurations: refused before anything is touched

    func testRun_libraryOrQuarantineInsideTheInbox_isRefusedWithExit64NamingBothKeys() throws {
        for (key, inside) in [("library", "inbox/lib"), ("quarantine", "inbox/q"), ("library", "inbox")] {
            let work = try workFolder()
            try put("photo-0.jpg", as: "shelf/good.jpg", in: work)
            var settings: [String: Any] = ["inbox": "inbox", "library": "library", "quarantine": "quarantine"]
            settings[key] = inside
            try IngestHarness.writeConfig(settings, in: work)
            let run = try ingest(work)
            XCTAssertEqual(run.status, 64, "\(key)=\(inside): \(run.stdout)\(run.stderr)")
            let named = inside == "inbox" ? "inbox and library are the same folder" : "\(key) (\(work.path)/\(inside)) lies inside inbox"
            XCTAssertTrue(run.stderr.contains(named), run.stderr)
            XCTAssertEqual(IngestHarness.files(under: work.appendingPathComponent("inbox")), ["shelf/good.jpg"],
                           "nothing moved, nothing made in the inbox")
        }
    }

    func testRun_libraryLinkedIntoTheInbox_isRefusedAfterTheLinkIsResolved() throws {
        let work = try workFolder()
        try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox/real-lib"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("lib").path,
                                                   withDestinationPath: work.appendingPathComponent("inbox/real-lib").path)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "lib", "quarantine": "quarantine"], in: work)
        let run = try ingest(work)
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("library (") && run.stderr.contains("lies inside inbox (\(work.path)/inbox)"), run.stderr)
    }

    func testRun_duplicateKeyInPipelineJSON_isRefusedWithItsNameAndLine() throws {
        let work = try workFolder()
        try Data("{\n  \"inbox\": \"inbox\",\n  \"library\": \"library\",\n  \"inbox\": \"elsewhere\"\n}\n".utf8)
            .write(to: work.appendingPathComponent("pipeline.json"))
        let run = try ingest(work)
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("inbox is given more than once (again on line 4)"), run.stderr)
    }

    // MARK: Helpers

    /// A work folder with an empty inbox and a configuration.
    private func workFolder() throws -> URL {
        let work = try TemporaryFolder.make("hostile")
        addTeardownBlock {
            _ = try? IngestHarness.execute(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+rwX", work.path], in: work.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: work)
        }
        try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                       "quarantine": "quarantine", "workers": 2], in: work)
        return work
    }

    /// Copies the fixture `name` to `path` below the inbox (or the work folder), making folders.
    private func put(_ name: String, as path: String, in work: URL, underInbox: Bool = true) throws {
        let fixtures = try XCTUnwrap(Self.fixtures, "the Python fixture script failed (needs pillow, numpy, piexif)")
        let target = work.appendingPathComponent(underInbox ? "inbox/\(path)" : path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: target)
    }

    /// `ingest run`, which must end within a minute whatever the inbox holds; as `user` when given
    /// (the tests must then run as root).
    private func ingest(_ work: URL, asUser user: String? = nil) throws -> IngestHarness.Outcome {
        guard let user else { return try IngestHarness.ingest(["run"], in: work, timeout: 60) }
        // A copy of the binary in the work folder: the build folder need not be open to `user`.
        let binary = work.appendingPathComponent("ingest")
        try FileManager.default.copyItem(at: IngestHarness.binary, to: binary)
        try IngestHarness.shell("chown \(user) ingest && chmod 755 ingest", in: work)
        return try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                         ["--reuid=\(user)", "--regid=nogroup", "--clear-groups", binary.path, "run"],
                                         in: work, timeout: 60)
    }

    private func catalogue(_ work: URL) throws -> Catalogue {
        try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
    }

    /// Puts the fixture `name` into a set beside a good photo, runs, and checks it is quarantined.
    private func assertQuarantined(_ name: String, reason: String, line: UInt = #line) throws {
        let work = try workFolder()
        try put("photo-0.jpg", as: "shelf/good.jpg", in: work)
        try put(name, as: "shelf/\(name)", in: work)
        try assertQuarantined("shelf/\(name)", reason: reason, in: work, photos: ["good.jpg"], line: line)
    }

    /// Runs `work` (as `user` when given) and checks that `path` (set/file) went to the quarantine with
    /// `reason` in the summary and its note, and that `photos` were catalogued.
    private func assertQuarantined(_ path: String, reason: String, in work: URL, photos: [String] = [], asUser user: String? = nil,
                                   line: UInt = #line) throws {
        let run = try ingest(work, asUser: user)
        XCTAssertEqual(run.status, 1, "\(run.stdout)\(run.stderr)", line: line)
        let destination = work.appendingPathComponent("quarantine/\(path)")
        XCTAssertTrue(run.stdout.contains("  \(path): \(reason)"), run.stdout, line: line)
        XCTAssertTrue(exists(Array(destination.path.utf8)), "\(path) is in the quarantine", line: line)
        XCTAssertFalse(exists(Array(work.appendingPathComponent("inbox/\(path)").path.utf8)), line: line)
        let note = try String(contentsOf: destination.appendingPathExtension("reason"), encoding: .utf8)
        XCTAssertTrue(note.contains("reason: \(reason)"), note, line: line)
        XCTAssertEqual(try catalogue(work).allPhotos().map(\.sourcePath).sorted(), photos, line: line)
    }

    /// Writes the fixture `name` to the path `bytes`, which need not be UTF-8.
    private func writeFixture(_ name: String, to bytes: [UInt8]) throws {
        let content = [UInt8](try Data(contentsOf: try XCTUnwrap(Self.fixtures).appendingPathComponent(name)))
        let descriptor = withRawPath(bytes) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, content.count)
        close(descriptor)
    }

    /// Whether anything (also a dangling link or a FIFO) is at the path `bytes`, not following links.
    private func exists(_ bytes: [UInt8]) -> Bool {
        var info = stat()
        return withRawPath(bytes) { lstat($0, &info) } == 0
    }

    private func withRawPath<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}

/// Writes the hostile fixtures into the folder given as argument.
private let fixtureScript = #"""
import io, os, struct, sys, zlib
import numpy as np
from PIL import Image

out = sys.argv[1]
def save(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

def jpeg(seed, size=(320, 240)):
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    buf = io.BytesIO(); Image.fromarray(pixels, "RGB").save(buf, "JPEG", quality=80)
    return buf.getvalue()

for i in range(4):
    save(f"photo-{i}.jpg", jpeg(i))
save("empty.jpg", b"")
save("text.jpg", b"this is plain text with a .jpg name\n")
picture = Image.fromarray(np.random.default_rng(12).integers(0, 256, (48, 64, 3), dtype=np.uint8), "RGB")
for name, kind in [("image.gif", "GIF"), ("document.pdf", "PDF"), ("bitmap.bmp", "BMP")]:
    buf = io.BytesIO(); picture.save(buf, kind); save(name, buf.getvalue())
save("drawing.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="red"/></svg>')
big = jpeg(10, (640, 480))
save("truncated.jpg", big[: len(big) * 2 // 5])
buf = io.BytesIO()
Image.fromarray(np.random.default_rng(11).integers(0, 256, (240, 320, 3), dtype=np.uint8), "RGB").save(buf, "PNG")
save("truncated.png", buf.getvalue()[: len(buf.getvalue()) // 2])

def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
save("bomb.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40000, 40000, 8, 0, 0, 0, 0))
     + chunk(b"IDAT", zlib.compress(b"\x00" * 40001, 9)) + chunk(b"IEND", b""))
good = bytearray(buf.getvalue())
good[29] ^= 0xFF  # the IHDR chunk's CRC, past the signature (8), length and type (8) and body (13)
save("bad-crc.png", bytes(good))

# JPEGs whose APP1 EXIF block lies: big-endian TIFF data built by hand, put right after SOI.
def entry(tag, kind, count, value):
    return struct.pack(">HHII", tag, kind, count, value)
def with_exif(tiff, seed):
    body = b"Exif\x00\x00" + tiff
    plain = jpeg(seed)
    return plain[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + plain[2:]
header = b"MM\x00\x2a"
# IFD0 said to start far beyond the block.
save("exif-ifd-offset-past-end.jpg", with_exif(header + struct.pack(">I", 0xFFFFFF00), 20))
# Make: ASCII with two billion characters, its data "at" offset 8.
save("exif-huge-count.jpg", with_exif(header + struct.pack(">IH", 8, 1) + entry(0x010F, 2, 0x7FFFFFFF, 8)
                                      + struct.pack(">I", 0), 21))
# Model's characters and the EXIF sub-IFD both said to lie far past the end of the block.
save("exif-value-past-end.jpg", with_exif(header + struct.pack(">IH", 8, 2) + entry(0x0110, 2, 40, 0x00FFFFF0)
                                          + entry(0x8769, 4, 1, 0x7FFFFFF0) + struct.pack(">I", 0), 22))
# IFD0's next IFD is IFD0, and its EXIF sub-IFD is IFD0 again: a loop.
save("exif-ifd-loop.jpg", with_exif(header + struct.pack(">IH", 8, 2) + entry(0x0112, 3, 1, 0x00010000)
                                    + entry(0x8769, 4, 1, 8) + struct.pack(">I", 8), 23))
"""#
