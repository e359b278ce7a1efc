import Catalog
import Foundation
import TestSupport
import XCTest

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

    func testAPI_eachCorrectionAnswersWithItsEditAndCaptures_andUndoesInReverse() throws {
        let served = try ServedSamples(for: self)
        let headers = ["X-CSRF-Token": try served.csrfToken()]
        let before = try served.layout()
        let catalogue = try served.catalogue()
        let single = try served.capture(ofSet: "single-product")
        let photos = try catalogue.photos(ofCapture: single.id)
        let noBarcode = try served.capture(ofSet: "no-barcode")

        let split = try served.client.post("/api/captures/\(single.id)/split", json: ["at": photos[2].id], headers: headers).object()
        XCTAssertEqual((split["edit"] as? [String: Any])?["kind"] as? String, "split")
        let parts = try XCTUnwrap(split["captures"] as? [[String: Any]])
        XCTAssertEqual(parts.map { $0["photoCount"] as? Int }, [2, 1])
        let newId = try XCTUnwrap(parts[1]["id"] as? String)

        let move = try served.client.post("/api/captures/\(noBarcode.id)/move", json: ["photo": String(try catalogue
            .photos(ofCapture: noBarcode.id)[0].id.prefix(8)), "to": newId], headers: headers)
        XCTAssertEqual(move.status, 200, move.text)
        let barcode = try served.client.post("/api/captures/\(newId)/barcode", json: ["code": "96385074"], headers: headers)
        XCTAssertEqual(barcode.status, 200, barcode.text)
        XCTAssertEqual(try catalogue.capture(id: newId)?.gtin13, "0000096385074")
        let product = try served.client.post("/api/captures/\(newId)/product", json: ["name": "Hand-typed wafers", "brand": "Test"],
                                             headers: headers).object()
        XCTAssertEqual((product["product"] as? [String: Any])?["name"] as? String, "Hand-typed wafers")
        XCTAssertEqual(try served.client.post("/api/captures/\(newId)/delete", json: [:], headers: headers).status, 200)
        XCTAssertNil(try catalogue.capture(id: newId))

        for _ in 0 ..< 4 {
            let undo = try served.client.post("/api/edits/undo", json: [:], headers: headers)
            XCTAssertEqual(undo.status, 200, undo.text)
        }
        XCTAssertEqual(try served.layout(), before)
        let edits = try XCTUnwrap(try served.client.send("GET", "/api/edits").object()["edits"] as? [[String: Any]])
        XCTAssertEqual(edits.count, 8)
    }

    func testAPI_refusedCorrections_sayWhyAndChangeNothing() throws {
        let served = try ServedSamples(for: self)
        let headers = ["X-CSRF-Token": try served.csrfToken()]
        let before = try served.layout()
        let qr = try XCTUnwrap(try served.catalogue().captures(matching: CaptureFilter(setName: "shelf-dump")).first { $0.symbology == .qr })
        let upc = try XCTUnwrap(try served.catalogue().captures(matching: CaptureFilter(barcode: "0955812235532")).first)
        let cases: [(String, Any, Int, String)] = [
            ("/api/captures/\(qr.id)/merge", ["with": [upc.id]], 409, "different barcodes"),
            ("/api/captures/\(qr.id)/barcode", ["code": "4006381333932"], 400, "check digit should be 1"),
            ("/api/captures/\(qr.id)/split", ["at": "ffffffff"], 404, "no photo"),
            ("/api/captures/ffffffff/delete", [String: Any](), 404, "no capture"),
            ("/api/captures/\(qr.id)/merge", ["with": 3], 400, "'with'"),
            ("/api/edits/999/undo", [String: Any](), 404, "no edit"),
        ]
        for (path, body, status, words) in cases {
            let response = try served.client.post(path, json: body, headers: headers)
            XCTAssertEqual(response.status, status, "\(path): \(response.text)")
            let message = try XCTUnwrap((try response.object()["error"] as? [String: Any])?["message"] as? String)
            XCTAssertTrue(message.contains(words), message)
        }
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
