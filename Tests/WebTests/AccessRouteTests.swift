import Foundation
import XCTest
import TestSupport
import Catalog

/// Who may read and change what, in this process (`RouterClient`): loopback by default, a token
/// (sign-in and session, or bearer), CSRF tokens for every change, `--read-only`. What needs the
/// real server — another `Host`, refusing to start off loopback — is `EndToEndTests.ServeSecurityTests`.
final class AccessRouteTests: XCTestCase {
    private let token = "correct-horse-battery-staple-42"

    func testLoopbackWithoutToken_aChangeWithoutTheCSRFTokenOrFromAnotherSite_isRefused() throws {
        let served = try ServedSamples(for: self)
        let (a, b) = (try served.capture(ofSet: "no-barcode").id, try served.capture(ofSet: "single-product").id)
        let before = try served.layout()
        let csrf = try served.csrfToken()
        let refused: [(String, [(String, String)], [String: String])] = [
            ("no token", [("capture[]", a), ("capture[]", b)], [:]),
            ("a wrong token", [("capture[]", a), ("capture[]", b), ("csrf", String(repeating: "0", count: 64))], [:]),
            ("another site's page", [("capture[]", a), ("capture[]", b), ("csrf", csrf)], ["Origin": "http://evil.example"]),
            ("a cross-site fetch", [("capture[]", a), ("capture[]", b), ("csrf", csrf)], ["Sec-Fetch-Site": "cross-site"]),
        ]
        for (what, form, headers) in refused {
            let response = try served.client.post("/captures/merge", form: form, headers: headers)
            XCTAssertEqual(response.status, 403, what)
        }
        let json = try served.client.post("/api/captures/\(a)/merge", json: ["with": [b]])
        XCTAssertEqual(json.status, 403, "JSON without X-CSRF-Token")
        XCTAssertEqual(try served.layout(), before, "nothing changed")
        let accepted = try served.client.post("/captures/merge", form: [("capture[]", a), ("capture[]", b), ("csrf", csrf)],
                                              headers: ["Origin": "http://\(served.client.authority)"])
        XCTAssertEqual(accepted.status, 303, accepted.text)
        XCTAssertEqual(try served.layout().count, before.count - 1)
    }

    func testDNSRebindingHosts_get403BeforeAnyRoute_withOrWithoutAToken() throws {
        // A page of attacker.example whose name now points at 127.0.0.1 asked for the session's CSRF
        // token, then posted a barcode correction and an upload with it.
        for token in [nil, token] {
            let served = try ServedSamples(for: self, token: token)
            let id = try served.capture(ofSet: "single-product").id
            let before = try served.layout()
            for host in ["127.0.0.1.attacker.example", "127.0.0.1.nip.io:8080", "localhost.example", "0x7f.1:8080", "localhost.:8080",
                         "[::ffff:127.0.0.1]:8080"] {
                let client = served.client.addressing(host)
                for (method, path) in [("GET", "/api/session"), ("GET", "/"), ("GET", "/healthz"), ("GET", "/signin"),
                                       ("POST", "/api/captures/\(id)/barcode"), ("POST", "/api/sets")] {
                    let response = try client.send(method, path, headers: ["Authorization": "Bearer \(self.token)",
                                                                           "Content-Type": "application/json"], body: Data("{}".utf8))
                    XCTAssertEqual(response.status, 403, "\(host) \(method) \(path)")
                    XCTAssertFalse(response.text.contains("csrfToken"), response.text)
                }
            }
            XCTAssertEqual(try served.layout(), before, "nothing changed")
            XCTAssertEqual(try served.client.addressing("LOCALHOST:8080").send("GET", "/healthz",
                                                                              headers: ["Authorization": "Bearer \(self.token)"]).status, 200)
        }
    }

    func testToken_theAPITakesItAsABearerTokenAndNothingElse() throws {
        let served = try ServedSamples(for: self, token: token)
        let client = served.client
        let refused = try client.send("GET", "/api/captures")
        XCTAssertEqual(refused.status, 401)
        XCTAssertNotNil(refused.headers["www-authenticate"])
        XCTAssertNotNil(try refused.object()["error"])
        XCTAssertEqual(try client.send("GET", "/api/captures", headers: ["Authorization": "Bearer not-the-token-at-all"]).status, 401)
        let bearer = ["Authorization": "Bearer \(token)"]
        XCTAssertEqual(try client.send("GET", "/api/captures", headers: bearer).status, 200)
        let id = try served.capture(ofSet: "no-barcode").id
        XCTAssertEqual(try client.post("/api/captures/\(id)/barcode", json: ["code": "4006381333931"]).status, 401)
        let set = try client.post("/api/captures/\(id)/barcode", json: ["code": "4006381333931"], headers: bearer)
        XCTAssertEqual(set.status, 200, set.text)
        XCTAssertEqual(try served.catalogue().capture(id: id)?.gtin13, "4006381333931")
    }

    func testReadOnly_refusesEveryCorrectionAndOffersNone() throws {
        let served = try ServedSamples(for: self, readOnly: true)
        let id = try served.capture(ofSet: "shelf-dump").id
        let csrf = try served.csrfToken()
        XCTAssertEqual(try served.client.post("/captures/\(id)/delete", form: [("csrf", csrf)]).status, 403)
        XCTAssertEqual(try served.client.post("/api/captures/\(id)/delete", json: [:], headers: ["X-CSRF-Token": csrf]).status, 403)
        XCTAssertNotNil(try served.catalogue().capture(id: id))
        let page = try served.client.send("GET", "/captures/\(id)").text
        XCTAssertFalse(page.contains("method=\"post\""), "no correction offered")
        XCTAssertTrue(page.contains("read-only"))
    }
}
