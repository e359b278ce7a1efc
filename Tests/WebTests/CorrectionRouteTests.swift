import Foundation
import TestSupport
import XCTest
import Catalog

/// Corrections through the pages' forms and the JSON API, in this process (`RouterClient`): each
/// one edit, each undone.
final class CorrectionRouteTests: XCTestCase {
    func testForms_mergeThenUndo_giveBackTheCataloguesLayout() throws {
        try mergeThenUndo(try ServedSamples(for: self))
    }

    func testForms_mergeThenUndo_onAPostgresCatalogue_giveBackTheCataloguesLayout() throws {
        let server = try PostgresServer.shared
        let database = try server.makeDatabase()
        addTeardownBlock { try? server.dropDatabase(database) }
        let served = try ServedSamples(for: self, catalogURL: server.url(database: database))
        XCTAssertTrue(served.work.libraryFiles().allSatisfy { !$0.hasSuffix(".sqlite") }, "no SQLite catalogue made")
        try mergeThenUndo(served)
        for page in ["/review", "/edits", "/"] {
            let shown = try served.client.send("GET", page)
            XCTAssertEqual(shown.status, 200, "\(page): \(shown.text)")
        }
    }

    /// Merges two captures through the page's form, then undoes the merge through its form.
    private func mergeThenUndo(_ served: ServedSamples) throws {
        let csrf = try served.csrfToken()
        let before = try served.layout()
        let (target, other) = (try served.capture(ofSet: "single-product").id, try served.capture(ofSet: "no-barcode").id)
        let merge = try served.client.post("/captures/merge", form: [("capture[]", target), ("capture[]", other), ("csrf", csrf)])
        XCTAssertEqual(merge.status, 303, merge.text)
        let location = try XCTUnwrap(merge.headers["location"])
        XCTAssertTrue(location.hasPrefix("/captures/\(target)?edit="), location)
        XCTAssertEqual(try served.layout()[target]?.count, 5)
        XCTAssertNil(try served.layout()[other])
        let shown = try served.client.send("GET", location).text
        XCTAssertTrue(shown.contains("merged 2 captures"), "the page reports the edit")
        let edit = try XCTUnwrap(location.split(separator: "=").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let undo = try served.client.post("/edits/\(edit)/undo", form: [("csrf", csrf)])
        XCTAssertEqual(undo.status, 303, undo.text)
        XCTAssertEqual(try served.layout(), before)
    }

    func testMalformedFormsAndQueries_areA400SayingWhy_andChangeNothing() throws {
        let served = try ServedSamples(for: self)
        let csrf = try served.csrfToken()
        let before = try served.layout()
        let (a, b) = (try served.capture(ofSet: "single-product").id, try served.capture(ofSet: "no-barcode").id)
        let forms: [(String, String, String)] = [
            ("/captures/merge", "capture=\(a)&capture=\(b)&csrf=\(csrf)", "more than once (several values are sent as capture[]"),
            ("/captures/merge", "capture%5B%5D=\(a)&csrf=\(csrf)", "tick two captures"),
            ("/captures/\(a)/barcode", "code=%zz&csrf=\(csrf)", "broken escape"),
            ("/captures/\(a)/barcode", "csrf=\(csrf)&csrf=\(csrf)", "more than once"),
            ("/captures/\(a)/split", "photo=+&csrf=\(csrf)", "the form has no photo"),
        ]
        for (path, body, words) in forms {
            let response = try served.client.send("POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                  body: Data(body.utf8))
            XCTAssertEqual(response.status, 400, "\(path) \(body): \(response.text)")
            XCTAssertTrue(response.text.contains(words), "\(words): \(response.text)")
        }
        let queries: [(String, String)] = [
            ("/?q=%zz", "the query has a broken escape"), ("/?q=a&q=b", "the query names"), ("/signin?next=%", "broken escape"),
            ("/edits?before=x", "before must be a whole number"), ("/captures/\(a)?edit=x", "edit must be a whole number"),
            ("/api/captures?q=%zz", "broken escape"), ("/api/edits?before=soon", "before must be a whole number"),
        ]
        for (path, words) in queries {
            let response = try served.client.send("GET", path)
            XCTAssertEqual(response.status, 400, "\(path): \(response.text)")
            XCTAssertTrue(response.text.contains(words), "\(path): \(response.text)")
        }
        XCTAssertEqual(try served.layout(), before, "nothing changed")
        // What a browser sends for two ticked boxes: the brackets escaped.
        let merge = try served.client.send("POST", "/captures/merge", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                           body: Data("capture%5B%5D=\(a)&capture%5B%5D=\(b)&csrf=\(csrf)".utf8))
        XCTAssertEqual(merge.status, 303, merge.text)
        XCTAssertNil(try served.layout()[b])
    }
}
