import Foundation
import TestSupport
import XCTest
import Catalog

/// `PageRoutes`: the pages over the ingested samples, in this process (`RouterClient`).
final class PageRouteTests: XCTestCase {
    func testPages_answerWithSecurityHeadersAndNoInlineScriptOrStyle() throws {
        let served = try ServedSamples(for: self)
        let id = try served.capture(ofSet: "shelf-dump").id
        for path in ["/", "/?rating=excellent&q=peanut", "/captures/\(id)", "/review", "/edits", "/assets/app.css"] {
            let response = try served.client.send("GET", path)
            XCTAssertEqual(response.status, 200, path)
            let policy = try XCTUnwrap(response.headers["content-security-policy"], path)
            XCTAssertTrue(policy.contains("script-src 'self'") && policy.contains("default-src 'none'"), policy)
            XCTAssertFalse(policy.contains("unsafe-inline"), policy)
            XCTAssertEqual(response.headers["x-content-type-options"], "nosniff")
            XCTAssertEqual(response.headers["referrer-policy"], "same-origin")
            guard path != "/assets/app.css" else { continue }
            XCTAssertFalse(response.text.contains("<script>") || response.text.contains(" style=") || response.text.contains("<style"),
                           "inline script or style in \(path)")
            XCTAssertFalse(response.text.contains(" on") && response.text.range(of: #" on[a-z]+="#, options: .regularExpression) != nil,
                           "an inline event handler in \(path)")
        }
        let catalogue = try served.client.send("GET", "/").text
        XCTAssertTrue(catalogue.contains("7 captures"), catalogue)
        XCTAssertTrue(catalogue.contains("Creamy Peanut Butter"), "product names from the import")
    }

    func testUnknownCaptureOrPath_isA404PageOrJSONWithoutInternals() throws {
        let served = try ServedSamples(for: self)
        let page = try served.client.send("GET", "/captures/00000000-0000-0000-0000-000000000000")
        XCTAssertEqual(page.status, 404)
        XCTAssertTrue(page.headers["content-type"]?.hasPrefix("text/html") == true)
        XCTAssertTrue(page.text.contains("no capture"), page.text)
        let json = try served.client.send("GET", "/api/captures/zzzzzzzz")
        XCTAssertEqual(json.status, 404)
        XCTAssertNotNil(try json.object()["error"])
        for response in [page, json, try served.client.send("GET", "/no/such/page")] {
            for leak in ["Swift", "Error(", ".swift", "GRDB", "SQLITE", "Fatal"] {
                XCTAssertFalse(response.text.contains(leak), "\(leak) in \(response.text)")
            }
        }
    }

    func testACaptureCommittedWhileServing_isShownWithoutARestart() throws {
        let served = try ServedSamples(for: self)
        let set = served.work.inbox.appendingPathComponent("arrived-later")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        _ = try runPython("""
            import sys, random
            from PIL import Image
            random.seed(7)
            image = Image.new("RGB", (640, 480))
            image.putdata([(random.randrange(256), random.randrange(256), random.randrange(256)) for _ in range(640 * 480)])
            image.save(sys.argv[1] + "/a.jpg", quality=90)
            """, arguments: [set.path])
        XCTAssertEqual(try served.work.ingest(["run", "--quiet"]).status, 0)
        let page = try served.client.send("GET", "/api/captures?set=arrived-later").object()
        XCTAssertEqual((page["captures"] as? [Any])?.count, 1)
        XCTAssertTrue(try served.client.send("GET", "/").text.contains("8 captures"))
    }
}
