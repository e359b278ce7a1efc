import Foundation
import TestSupport
import XCTest

/// `UploadRoutes`: the capture page and `POST /api/sets` over the ingested samples, in this process
/// (`RouterClient`: the whole body at once). Streaming, stalls, cuts and kills over a real socket are
/// `EndToEndTests.UploadTests`.
final class UploadRouteTests: XCTestCase {
    private let photo = IngestHarness.packageRoot.appendingPathComponent("samples/single-product/IMG_0001.jpg")

    func testCapturePage_postsItsPhotosToTheAPI() throws {
        let served = try ServedSamples(for: self)
        let page = try served.client.send("GET", "/capture")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains(#"action="/api/sets""#), page.text)
        XCTAssertTrue(page.text.contains(#"type="file""#), page.text)
    }

    func testUpload_aPhotoAndAnAgent_becomesOneSetInTheInbox_whoseStatusIsAsked() throws {
        let served = try ServedSamples(for: self)
        let body = try multipart([("photo", "front.jpg", Data(contentsOf: photo)), ("agentId", nil, Data("chef".utf8))])
        let answer = try served.client.send("POST", "/api/sets", headers: ["Content-Type": "multipart/form-data; boundary=B0undary",
                                                                          "X-CSRF-Token": served.csrfToken()], body: body)
        XCTAssertEqual(answer.status, 201, answer.text)
        let set = try XCTUnwrap(try answer.object()["set"] as? String)
        XCTAssertEqual(answer.headers["location"], "/api/sets/\(set)")
        let folder = served.work.inbox.appendingPathComponent(set)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(files.filter { !$0.hasPrefix(".") }.count, 2, "the photo and capture.json: \(files)")
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(files.first { $0.hasSuffix(".jpg") } ?? "")),
                       try Data(contentsOf: photo))
        let context = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("capture.json")))
        XCTAssertEqual((context as? [String: Any])?["agentId"] as? String, "chef")
        let status = try served.client.send("GET", "/api/sets/\(set)")
        XCTAssertEqual(status.status, 200)
        XCTAssertEqual(try status.object()["set"] as? String, set)
    }

    func testRefusals_sayWhyAndLeaveNothingInTheInbox() throws {
        let served = try ServedSamples(for: self)
        let before = try sets(in: served.work.inbox)
        let token = try served.csrfToken()
        let notMultipart = try served.client.send("POST", "/api/sets", headers: ["Content-Type": "application/json", "X-CSRF-Token": token],
                                                  body: Data("{}".utf8))
        XCTAssertEqual(notMultipart.status, 400)
        XCTAssertTrue(try XCTUnwrap((try notMultipart.object()["error"] as? [String: Any])?["message"] as? String).contains("multipart"))
        let notAPhoto = try served.client.send("POST", "/api/sets", headers: ["Content-Type": "multipart/form-data; boundary=B0undary",
                                                                             "X-CSRF-Token": token],
                                               body: multipart([("photo", "a.jpg", Data("not a photo at all, only text".utf8))]))
        XCTAssertEqual(notAPhoto.status, 415, notAPhoto.text)
        let noToken = try served.client.send("POST", "/api/sets", headers: ["Content-Type": "multipart/form-data; boundary=B0undary"],
                                             body: multipart([("photo", "a.jpg", Data(contentsOf: photo))]))
        XCTAssertEqual(noToken.status, 403, noToken.text)
        XCTAssertEqual(try served.client.send("GET", "/api/sets/no-such-set").status, 404)
        XCTAssertEqual(try sets(in: served.work.inbox), before)
        XCTAssertEqual(IngestHarness.files(under: served.work.inbox.appendingPathComponent(".uploads")), [], "nothing left in staging")
    }

    /// The inbox's set folders (hidden staging left out).
    private func sets(in inbox: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: inbox.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A `multipart/form-data` body with boundary `B0undary`: each part a field, or a file with its name.
    private func multipart(_ parts: [(name: String, filename: String?, bytes: Data)]) throws -> Data {
        var body = Data()
        for part in parts {
            let filename = part.filename.map { "; filename=\"\($0)\"" } ?? ""
            body += Data("--B0undary\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(filename)\r\n\r\n".utf8)
            body += part.bytes + Data("\r\n".utf8)
        }
        return body + Data("--B0undary--\r\n".utf8)
    }
}
