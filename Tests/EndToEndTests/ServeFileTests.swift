import Foundation
import TestSupport
import XCTest
import Catalog

/// Paths no ordinary client sends (`..`, encoded slashes, `%00`), sent as they are by `HTTPClient` to
/// `ingest serve` over a real socket: no file outside the served routes is ever reached. The files'
/// routes themselves are tested in-process (`WebTests.FileRouteTests`).
final class ServeFileTests: XCTestCase {
    func testTraversal_pathsInTheURL_neverReachAFile() throws {
        let served = try ServedSamples(for: self)
        let photo = try XCTUnwrap(try served.catalogue().allPhotos().first)
        let attempts = [
            "/photos/../../../../etc/passwd", "/photos/..%2F..%2F..%2Fetc%2Fpasswd/original",
            "/photos/\(photo.id)/../../catalog.sqlite", "/photos/\(photo.id)%2F..%2F..%2Fcatalog.sqlite/original",
            "/assets/../catalog.sqlite", "/assets/..%2F..%2Fcatalog.sqlite", "/assets/%2e%2e/%2e%2e/etc/passwd",
            "/../../etc/passwd", "/library/catalog.sqlite", "/originals/\(photo.originalPath)", "/\(photo.thumbPath)",
            "/photos/%00/original", "/captures/..%2F..%2Fetc%2Fpasswd",
        ]
        for path in attempts {
            let response = try served.client.send("GET", path)
            XCTAssertTrue([400, 404].contains(response.status), "\(path): \(response.status)")
            XCTAssertFalse(response.text.contains("root:") || response.text.contains("SQLite format"), path)
        }
    }
}
