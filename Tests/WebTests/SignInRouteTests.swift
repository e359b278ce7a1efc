import Foundation
@testable import Web
import XCTest
import TestSupport
import Catalog

/// `SignInRoutes`: a browser signs in once with the token, and out, in this process (`RouterClient`).
final class SignInRouteTests: XCTestCase {
    private let token = "correct-horse-battery-staple-42"

    func testToken_browserSignsInOnceWithAnHttpOnlyStrictCookie_andChangesNeedItsCSRFToken() throws {
        let served = try ServedSamples(for: self, token: token)
        let client = served.client
        let first = try client.send("GET", "/review")
        XCTAssertEqual(first.status, 303)
        XCTAssertEqual(first.headers["location"], "/signin?next=%2Freview")
        XCTAssertEqual(try client.send("GET", "/photos/x/thumbnail").status, 303)
        XCTAssertEqual(try client.post("/signin", form: [("token", "wrong-token-wrong-token"), ("next", "/review")]).status, 401)
        let signIn = try client.post("/signin", form: [("token", token), ("next", "/review")])
        XCTAssertEqual(signIn.status, 303)
        XCTAssertEqual(signIn.headers["location"], "/review")
        let cookie = try XCTUnwrap(signIn.cookies.first)
        XCTAssertTrue(cookie.contains("HttpOnly"), cookie)
        XCTAssertTrue(cookie.contains("SameSite=Strict"), cookie)
        let session = String(cookie.prefix { $0 != ";" })
        let page = try client.send("GET", "/", headers: ["Cookie": session])
        XCTAssertEqual(page.status, 200)
        let csrf = try XCTUnwrap(page.text.range(of: #"(?<=name="csrf-token" content=")[0-9a-f]{64}"#, options: .regularExpression)
            .map { String(page.text[$0]) })
        let id = try served.capture(ofSet: "shelf-dump").id
        let withoutCSRF = try client.post("/captures/\(id)/barcode", form: [("none", "1")], headers: ["Cookie": session])
        XCTAssertEqual(withoutCSRF.status, 403)
        let withCSRF = try client.post("/captures/\(id)/barcode", form: [("none", "1"), ("csrf", csrf)], headers: ["Cookie": session])
        XCTAssertEqual(withCSRF.status, 303, withCSRF.text)
        XCTAssertNil(try served.catalogue().capture(id: id)?.barcode)
        let signOut = try client.post("/signout", form: [("csrf", csrf)], headers: ["Cookie": session])
        XCTAssertEqual(signOut.status, 303)
        XCTAssertEqual(try client.send("GET", "/", headers: ["Cookie": session]).status, 303, "the session ended")
    }

    func testSafeNext_onlyAPathOfThisServer() {
        XCTAssertEqual(SignInRoutes.safeNext("/captures/x?edit=1"), "/captures/x?edit=1")
        for unsafe in [nil, "", "https://evil.example/", "//evil.example/", "/\\evil.example", "captures"] {
            XCTAssertEqual(SignInRoutes.safeNext(unsafe), "/", unsafe ?? "nil")
        }
    }
}
