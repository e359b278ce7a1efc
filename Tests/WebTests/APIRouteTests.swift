import Catalog
import Foundation
import XCTest
import Vocabulary
import TestSupport

/// `APIRoutes`: the JSON API under `/api` over the ingested samples, in this process (`RouterClient`):
/// the keys of `list --json` and `show --json`, corrections and their undo.
final class APIRouteTests: XCTestCase {
    func testAPICaptures_pagedWithLimitAndBefore_giveExactlyWhatListJSONGives() throws {
        let served = try ServedSamples(for: self)
        let listed = try XCTUnwrap(try served.work.json(["list", "--json", "--all"]) as? [[String: Any]])
        var paged: [[String: Any]] = []
        var path = "/api/captures?limit=3"
        var pages = 0
        while true {
            let page = try served.client.send("GET", path).object()
            paged += try XCTUnwrap(page["captures"] as? [[String: Any]])
            pages += 1
            guard let next = page["next"] as? String else {
                XCTAssertTrue(page["next"] is NSNull, "next is null on the last page")
                break
            }
            path = "/api/captures?limit=3&before=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(paged.count, 7)
        XCTAssertEqual(paged.map { NSDictionary(dictionary: $0) }, listed.map { NSDictionary(dictionary: $0) },
                       "the same keys and values as list --json, in the same order")
    }

    func testAPICapture_isWhatShowJSONPrints() throws {
        let served = try ServedSamples(for: self)
        let id = try served.capture(ofSet: "rotated-and-formats").id
        let shown = try XCTUnwrap(try served.work.json(["show", id, "--json"]) as? [String: Any])
        let answered = try served.client.send("GET", "/api/captures/\(id)").object()
        XCTAssertEqual(NSDictionary(dictionary: answered), NSDictionary(dictionary: shown))
        XCTAssertEqual((answered["photos"] as? [Any])?.count, 3)
    }

    func testAPICaptures_filtersAndALimitOutOfRange() throws {
        let served = try ServedSamples(for: self)
        func ids(_ query: String) throws -> [String] {
            let page = try served.client.send("GET", "/api/captures?\(query)").object()
            return try XCTUnwrap(page["captures"] as? [[String: Any]]).compactMap { $0["setName"] as? String }
        }
        XCTAssertEqual(try ids("nobarcode=1"), ["no-barcode"])
        XCTAssertEqual(try ids("q=peanut"), ["shelf-dump"])
        XCTAssertEqual(try ids("set=single-product"), ["single-product"])
        XCTAssertEqual(try ids("barcode=0383935678262"), ["rotated-and-formats"])
        XCTAssertEqual(try ids("until=2026-11-21").sorted(), ["bad-files", "rotated-and-formats"])
        XCTAssertEqual(try ids("rating=poor"), [])
        for query in ["limit=0", "limit=1001", "limit=x", "since=yesterday", "before=nowhere"] {
            let response = try served.client.send("GET", "/api/captures?\(query)")
            XCTAssertEqual(response.status, 400, query)
            let error = try XCTUnwrap(try response.object()["error"] as? [String: Any], query)
            XCTAssertNotNil(error["message"] as? String)
        }
        XCTAssertEqual(try served.client.send("GET", "/api/captures?limit=1000").status, 200)
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
}
