import Foundation
import XCTest
import TestSupport
import Catalog

/// `ingest serve` over a real socket: the built binary starts, listens and answers through its
/// HTTP/1 stack — a page, the API, a file's range, a form with the tick boxes' `capture[]` names.
/// Every route is tested in-process (`WebTests`); this one test shows the server they run in.
final class ServePageTests: XCTestCase {
    func testServe_answersAPageTheAPIAFileAndAFormOverARealSocket() throws {
        let served = try ServedSamples(for: self)
        let page = try served.client.send("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.headers["content-type"]?.hasPrefix("text/html") == true)
        XCTAssertTrue(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        XCTAssertTrue(page.text.contains("7 captures"), page.text)
        XCTAssertTrue(page.text.contains("name=\"capture[]\""), "tick boxes named for a list")

        let api = try served.client.send("GET", "/api/captures?limit=3").object()
        XCTAssertEqual((api["captures"] as? [Any])?.count, 3)
        XCTAssertNotNil(api["next"] as? String)

        let photo = try XCTUnwrap(try served.catalogue().allPhotos().first)
        let file = try Data(contentsOf: served.work.library.appendingPathComponent(photo.originalPath))
        let part = try served.client.send("GET", "/photos/\(photo.id)/original", headers: ["Range": "bytes=0-99"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, file.prefix(100))
        let head = try served.client.send("HEAD", "/photos/\(photo.id)/original")
        XCTAssertEqual(head.headers["content-length"], String(file.count))
        XCTAssertEqual(head.body.count, 0)

        let (target, other) = (try served.capture(ofSet: "single-product").id, try served.capture(ofSet: "no-barcode").id)
        let merge = try served.client.post("/captures/merge", form: [("capture[]", target), ("capture[]", other),
                                                                      ("csrf", try served.csrfToken())])
        XCTAssertEqual(merge.status, 303, merge.text)
        XCTAssertNil(try served.layout()[other], "merged")
        let repeated = try served.client.post("/captures/merge", form: [("capture", target), ("capture", other),
                                                                         ("csrf", try served.csrfToken())])
        XCTAssertEqual(repeated.status, 400, "a name sent twice is refused, not a 500: \(repeated.text)")
    }
}
