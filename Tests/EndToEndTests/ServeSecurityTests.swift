import Foundation
import TestSupport
import XCTest
import Catalog

/// What only the built server shows: a request for another `Host` (which an ordinary client would not
/// send) refused on loopback; refusing to start off loopback without a token; the token and
/// `--read-only` taken from the command line and the environment. The access rules themselves are
/// tested in-process (`WebTests.AccessRouteTests`).
final class ServeSecurityTests: XCTestCase {
    private let token = "correct-horse-battery-staple-42"

    func testLoopback_aRequestForAnotherHostName_isRefused() throws {
        // DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 must not read the pages.
        let served = try ServedSamples(for: self)
        XCTAssertEqual(try served.client.send("GET", "/", headers: ["Host": "evil.example:8080"]).status, 403)
        XCTAssertEqual(try served.client.send("GET", "/api/session", headers: ["Host": "evil.example"]).status, 403)
        XCTAssertEqual(try served.client.send("GET", "/", headers: ["Host": "localhost:1234"]).status, 200)
        // A rebinding name that starts like a loopback address: no session, no correction, no upload.
        let rebound = ["Host": "127.0.0.1.attacker.example"]
        let session = try served.client.send("GET", "/api/session", headers: rebound)
        XCTAssertEqual(session.status, 403)
        XCTAssertFalse(session.text.contains("csrfToken"), session.text)
        let csrf = try XCTUnwrap(try served.client.send("GET", "/api/session").json() as? [String: Any])["csrfToken"] as? String
        let id = try XCTUnwrap(try served.work.catalogue().captures().first?.id)
        let before = try served.work.catalogue().capture(id: id)?.gtin13
        let inbox = IngestHarness.files(under: served.work.inbox)
        XCTAssertEqual(try served.client.post("/api/captures/\(id)/barcode", json: ["code": "4006381333931"],
                                              headers: rebound.merging(["X-CSRF-Token": csrf ?? ""]) { $1 }).status, 403)
        XCTAssertEqual(try served.client.send("POST", "/api/sets", headers: rebound.merging([
            "X-CSRF-Token": csrf ?? "", "Content-Type": "multipart/form-data; boundary=b"]) { $1 },
            body: Data("--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n\u{FF}\u{D8}\u{FF}\r\n--b--\r\n".utf8)).status, 403)
        XCTAssertEqual(try served.work.catalogue().capture(id: id)?.gtin13, before)
        XCTAssertEqual(IngestHarness.files(under: served.work.inbox), inbox, "no upload was taken")
    }

    func testOffLoopback_withoutAToken_refusesToStart_withAToken_refusesWritesWithoutIt() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        for arguments in [["--listen", "0.0.0.0:0"], ["--listen", "0.0.0.0:0", "--token", "short"], ["--listen", "nonsense"]] {
            let outcome = try work.ingest(["serve"] + arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("--listen") || outcome.stderr.contains("token"), outcome.stderr)
        }
        let server = try ServeHarness(in: work.folder, arguments: ["--listen", "0.0.0.0:0"], environment: ["INGEST_TOKEN": token],
                                      test: self)
        let client = HTTPClient(url: server.url.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1"))
        let id = try XCTUnwrap(try work.catalogue().captures().first?.id)
        XCTAssertEqual(try client.post("/captures/\(id)/delete", form: []).status, 401)
        XCTAssertEqual(try client.post("/api/captures/\(id)/delete", json: [:]).status, 401)
        XCTAssertNotNil(try work.catalogue().capture(id: id))
    }

    func testReadOnlyFlag_turnsEveryCorrectionOff() throws {
        let served = try ServedSamples(for: self, arguments: ["--listen", "127.0.0.1:0", "--read-only"])
        let id = try served.capture(ofSet: "shelf-dump").id
        let csrf = try served.csrfToken()
        XCTAssertEqual(try served.client.post("/captures/\(id)/delete", form: [("csrf", csrf)]).status, 403)
        XCTAssertEqual(try served.client.post("/api/captures/\(id)/delete", json: [:], headers: ["X-CSRF-Token": csrf]).status, 403)
        XCTAssertNotNil(try served.catalogue().capture(id: id))
    }
}
