import Foundation
import TestSupport
import XCTest
import Vocabulary
import Catalog

/// Thumbnails and originals, served by photo id from the library and from nowhere else, in this
/// process (`RouterClient`). Paths a client cannot send (`..`, `%00`) go to the real server:
/// `EndToEndTests.ServeFileTests`.
final class FileRouteTests: XCTestCase {
    private func sha256(_ data: Data) throws -> String {
        try runPython("import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest(), end='')", input: data)
    }

    func testThumbnail_isTheLibraryFileWithItsSHA256AsETag_andRevalidates() throws {
        let served = try ServedSamples(for: self)
        let photo = try XCTUnwrap(try served.catalogue().allPhotos().first)
        let response = try served.client.send("GET", "/photos/\(photo.id)/thumbnail")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "image/jpeg")
        let file = try Data(contentsOf: served.work.library.appendingPathComponent(photo.thumbPath))
        XCTAssertEqual(response.body, file)
        let tag = try XCTUnwrap(response.headers["etag"])
        XCTAssertEqual(tag, "\"\(try sha256(file))\"")
        XCTAssertNotNil(response.headers["cache-control"])
        let again = try served.client.send("GET", "/photos/\(photo.id)/thumbnail", headers: ["If-None-Match": tag])
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.body.count, 0)
    }

    func testOriginal_wholeAndInRanges_withTheCataloguedSHA256AsETag() throws {
        let served = try ServedSamples(for: self)
        let photo = try XCTUnwrap(try served.catalogue().allPhotos().first { $0.format == .png })
        let file = try Data(contentsOf: served.work.library.appendingPathComponent(photo.originalPath))
        let path = "/photos/\(photo.id)/original"
        let whole = try served.client.send("GET", path)
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, file)
        XCTAssertEqual(whole.headers["content-type"], "image/png")
        XCTAssertEqual(whole.headers["etag"], "\"\(photo.sha256)\"")
        XCTAssertEqual(whole.headers["accept-ranges"], "bytes")
        let size = file.count
        let cases: [(String, Range<Int>)] = [("bytes=0-99", 0 ..< 100), ("bytes=100-", 100 ..< size), ("bytes=-50", size - 50 ..< size),
                                             ("bytes=10-\(size + 999)", 10 ..< size)]
        for (header, range) in cases {
            let part = try served.client.send("GET", path, headers: ["Range": header])
            XCTAssertEqual(part.status, 206, header)
            XCTAssertEqual(part.body, file.subdata(in: range), header)
            XCTAssertEqual(part.headers["content-range"], "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)", header)
        }
        let outside = try served.client.send("GET", path, headers: ["Range": "bytes=\(size)-"])
        XCTAssertEqual(outside.status, 416)
        XCTAssertEqual(outside.headers["content-range"], "bytes */\(size)")
        let stale = try served.client.send("GET", path, headers: ["Range": "bytes=0-9", "If-Range": "\"another\""])
        XCTAssertEqual(stale.status, 200, "a range of another version of the file is not sent")
        XCTAssertEqual(stale.body, file)
        XCTAssertEqual(try served.client.send("HEAD", path).headers["content-length"], String(size))
    }

    func testTamperedRowsAndLinks_inTheLibrary_areNotFollowedOutOfIt() throws {
        let served = try ServedSamples(for: self)
        let secret = served.work.folder.appendingPathComponent("secret.txt")
        try Data("the secret".utf8).write(to: secret)
        let photos = try served.catalogue().allPhotos()
        // A row pointing out of the library, another through `..`, and a thumbnail replaced by a link.
        let database = served.work.library.appendingPathComponent("catalog.sqlite").path
        try IngestHarness.shell("""
            python3 -c "import sqlite3; db = sqlite3.connect('\(database)'); \
            db.execute(\\"UPDATE photo SET original_path = '../secret.txt' WHERE id = '\(photos[0].id)'\\"); \
            db.execute(\\"UPDATE photo SET thumb_path = 'thumbs/../../secret.txt' WHERE id = '\(photos[1].id)'\\"); \
            db.execute(\\"UPDATE photo SET original_path = '\(secret.path)' WHERE id = '\(photos[2].id)'\\"); db.commit()"
            """, in: served.work.folder)
        let linked = served.work.library.appendingPathComponent(photos[3].thumbPath)
        try FileManager.default.removeItem(at: linked)
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: secret)
        let folderLink = served.work.library.appendingPathComponent("thumbs/linked")
        try FileManager.default.createSymbolicLink(at: folderLink, withDestinationURL: served.work.folder)
        try IngestHarness.shell("""
            python3 -c "import sqlite3; db = sqlite3.connect('\(database)'); \
            db.execute(\\"UPDATE photo SET thumb_path = 'thumbs/linked/secret.txt' WHERE id = '\(photos[4].id)'\\"); db.commit()"
            """, in: served.work.folder)
        for path in ["/photos/\(photos[0].id)/original", "/photos/\(photos[1].id)/thumbnail", "/photos/\(photos[2].id)/original",
                     "/photos/\(photos[3].id)/thumbnail", "/photos/\(photos[4].id)/thumbnail"] {
            let response = try served.client.send("GET", path)
            XCTAssertEqual(response.status, 404, path)
            XCTAssertFalse(response.text.contains("the secret"), path)
        }
    }
}
