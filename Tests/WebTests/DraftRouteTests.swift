import Catalog
import Foundation
import Pipeline
import SystemPackage
import TestSupport
import XCTest

/// `DraftRoutes`: the capture flow's drafts over the ingested samples (and their product data), in
/// this process. The barcode photo is read at once and named; photos are retaken and removed;
/// Cancel leaves nothing; Save puts one set in the inbox, which a run catalogues (joining the capture
/// it names); each draft is its session's only. The page itself is driven in Chromium by
/// `EndToEndTests.CaptureFlowBrowserTests`.
final class DraftRouteTests: XCTestCase {
    private let samples = IngestHarness.packageRoot.appendingPathComponent("samples/single-product")

    func testBarcodePhoto_isReadAtOnce_namedFromTheProductData_andFoundInTheCatalogue() throws {
        let served = try ServedSamples(for: self)
        let before = try sets(in: served.work.inbox)
        let id = try createDraft(served)
        let draft = try addPhoto(served, id, "IMG_0001.jpg", role: "barcode")
        let barcode = try XCTUnwrap(draft["barcode"] as? [String: Any], "\(draft)")
        XCTAssertEqual(barcode["text"] as? String, "5902255046404")
        XCTAssertEqual(barcode["symbology"] as? String, "EAN-13")
        XCTAssertEqual(draft["barcodeTaken"] as? Bool, true)
        let product = try XCTUnwrap(draft["product"] as? [String: Any], "samples/products.tsv names it: \(draft)")
        XCTAssertNotNil(product["name"] as? String)
        let catalogued = try XCTUnwrap(draft["catalogued"] as? [String: Any], "the samples' run catalogued it: \(draft)")
        XCTAssertEqual(catalogued["photos"] as? Int, 3)
        XCTAssertEqual(catalogued["capture"] as? String, try served.capture(ofSet: "single-product").id)
        let photos = try XCTUnwrap(draft["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.count, 1)
        let thumbnail = try served.client.send("GET", try XCTUnwrap(photos[0]["thumbnail"] as? String))
        XCTAssertEqual(thumbnail.status, 200)
        XCTAssertEqual(thumbnail.headers["content-type"], "image/jpeg")
        XCTAssertEqual(Array(thumbnail.body.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(try sets(in: served.work.inbox), before, "a draft is not in the inbox")
        let front = try addPhoto(served, id, "IMG_0002.jpg", role: "front")
        XCTAssertNotNil(front["product"] as? [String: Any], "still named: \(front)")
        XCTAssertEqual((front["barcode"] as? [String: Any])?["text"] as? String, "5902255046404", "the barcode photo's code stays")
    }

    func testRetakeRemoveAndCancel_leaveNothingBehind() throws {
        let served = try ServedSamples(for: self)
        let id = try createDraft(served)
        let first = try addPhoto(served, id, "IMG_0002.jpg", role: "front")
        XCTAssertEqual(first["barcodeTaken"] as? Bool, false)
        XCTAssertTrue(first["barcode"] is NSNull, "no code on a front: \(first)")
        let retaken = try addPhoto(served, id, "IMG_0003.jpg", role: "front")
        let retakenPhotos = try XCTUnwrap(retaken["photos"] as? [[String: Any]])
        XCTAssertEqual(retakenPhotos.map { $0["role"] as? String }, ["front"], "a retake takes the front's place")
        XCTAssertEqual(retakenPhotos.first?["file"] as? String, "IMG_0003.jpg")
        let more = try addPhoto(served, id, "IMG_0002.jpg", role: "more")
        let numbers = try XCTUnwrap(more["photos"] as? [[String: Any]]).compactMap { $0["number"] as? Int }
        XCTAssertEqual(numbers.count, 2)
        let removed = try served.client.send("DELETE", "/api/drafts/\(id)/photos/\(numbers[0])",
                                             headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(removed.status, 200, removed.text)
        XCTAssertEqual(try XCTUnwrap(try removed.object()["photos"] as? [[String: Any]]).compactMap { $0["number"] as? Int },
                       [numbers[1]])
        let again = try served.client.send("DELETE", "/api/drafts/\(id)/photos/\(numbers[0])",
                                           headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(again.status, 404, "a photo removed twice is not another photo")
        let drafts = served.work.inbox.appendingPathComponent(".drafts/\(id)")
        XCTAssertFalse(IngestHarness.files(under: drafts).isEmpty)
        let cancelled = try served.client.send("DELETE", "/api/drafts/\(id)", headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(cancelled.status, 204, cancelled.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: drafts.path), "cancel removes the draft and its files")
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/\(id)").status, 404)
    }

    func testSave_becomesOneSetWithItsContext_andARunAddsItsPhotosToTheCaptureItNames_undoably() throws {
        let served = try ServedSamples(for: self)
        let existing = try served.capture(ofSet: "single-product")
        let id = try createDraft(served)
        // New bytes of the same pictures (a comment added to each JPEG): photos a run does not take for duplicates.
        _ = try addPhoto(served, id, "IMG_0001.jpg", role: "barcode", bytes: renewed("IMG_0001.jpg"))
        _ = try addPhoto(served, id, "IMG_0002.jpg", role: "front", bytes: renewed("IMG_0002.jpg"))
        let draft = try addPhoto(served, id, "IMG_0003.jpg", role: "label", bytes: renewed("IMG_0003.jpg"))
        XCTAssertEqual((draft["catalogued"] as? [String: Any])?["capture"] as? String, existing.id)
        let saved = try served.client.post("/api/drafts/\(id)/save",
                                           json: ["agentId": "chef", "agentName": "Practical Chef", "addTo": existing.id],
                                           headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(saved.status, 201, saved.text)
        let set = try XCTUnwrap(try saved.object()["set"] as? String)
        XCTAssertEqual(saved.headers["location"], "/api/sets/\(set)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: served.work.inbox.appendingPathComponent(".drafts/\(id)").path))
        let folder = served.work.inbox.appendingPathComponent(set)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(files, ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg", "capture.json"])
        let context = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("capture.json")))
            as? [String: String])
        XCTAssertEqual(context, ["agentId": "chef", "agentName": "Practical Chef", "addTo": existing.id])

        let run = try served.work.ingest(["run", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let catalogue = try served.catalogue()
        XCTAssertEqual(try catalogue.capture(id: existing.id)?.photoCount, 6, "the three new photos joined the capture")
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(setName: set)), [], "no capture of its own")
        let status = try served.client.send("GET", "/api/sets/\(set)").object()
        XCTAssertEqual(status["state"] as? String, "ingested", "\(status)")
        XCTAssertEqual(status["captures"] as? [String], [existing.id], "the set is followed to the capture it joined")
        let edits = try served.client.send("GET", "/api/edits")
        let latest = try XCTUnwrap((try edits.object()["edits"] as? [[String: Any]])?.first)
        XCTAssertTrue((latest["origin"] as? String)?.contains("capture flow") == true, "\(latest)")
        let undo = try served.client.post("/api/edits/undo", json: [:], headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(undo.status, 200, undo.text)
        XCTAssertEqual(try catalogue.capture(id: existing.id)?.photoCount, 3, "undone: the capture as it was")
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(setName: set)).map(\.photoCount), [3],
                       "and the saved set a capture of its own")
    }

    func testDraft_isItsSessionsOnly_andEveryChangeNeedsItsCSRFToken() throws {
        let token = "draft-token-0123456789"
        let served = try ServedSamples(for: self, token: token)
        let (first, firstCSRF) = try signIn(served, token)
        let (second, secondCSRF) = try signIn(served, token)
        let made = try served.client.send("POST", "/api/drafts", headers: ["Cookie": first, "X-CSRF-Token": firstCSRF])
        XCTAssertEqual(made.status, 201, made.text)
        let id = try XCTUnwrap(try made.object()["id"] as? String)
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/\(id)", headers: ["Cookie": first]).status, 200)
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/\(id)", headers: ["Cookie": second]).status, 404,
                       "another session's draft does not exist for it")
        XCTAssertEqual(try served.client.send("DELETE", "/api/drafts/\(id)", headers: ["Cookie": second, "X-CSRF-Token": secondCSRF]).status,
                       404)
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/\(id)", headers: ["Authorization": "Bearer \(token)"]).status, 404,
                       "nor for a program with the token")
        XCTAssertEqual(try served.client.send("DELETE", "/api/drafts/\(id)", headers: ["Cookie": first]).status, 403, "no CSRF token")
        XCTAssertEqual(try served.client.send("POST", "/api/drafts").status, 401, "not signed in")
        XCTAssertEqual(try served.client.send("DELETE", "/api/drafts/\(id)", headers: ["Cookie": first, "X-CSRF-Token": firstCSRF]).status,
                       204)
    }

    func testDraft_followsTheDeviceThatMadeIt_acrossSigningInAgainAndARestart() throws {
        let token = "device-token-0123456789"
        let served = try ServedSamples(for: self, token: token)
        let (session, csrf) = try signIn(served, token)
        let page = try served.client.send("GET", "/capture", headers: ["Cookie": session])
        let cookie = try XCTUnwrap(page.cookies.first { $0.hasPrefix("ingest_device=") }, "\(page.cookies)")
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        let device = String(cookie.prefix { $0 != ";" })
        let again = try served.client.send("GET", "/capture", headers: ["Cookie": "\(session); \(device)"])
        XCTAssertFalse(again.cookies.contains { $0.hasPrefix("ingest_device=") }, "a device keeps its cookie")
        let made = try served.client.send("POST", "/api/drafts", headers: ["Cookie": "\(session); \(device)", "X-CSRF-Token": csrf])
        let id = try XCTUnwrap(try made.object()["id"] as? String)

        let restarted = try served.restarted(token: token, test: self)
        XCTAssertEqual(try restarted.client.send("GET", "/api/drafts/\(id)", headers: ["Cookie": "\(session); \(device)"]).status, 401,
                       "the old session is gone with the old server")
        let (newSession, _) = try signIn(restarted, token)
        XCTAssertEqual(try restarted.client.send("GET", "/api/drafts/\(id)", headers: ["Cookie": "\(newSession); \(device)"]).status, 200,
                       "signed in again on the same device: the draft is there")
        XCTAssertEqual(try restarted.client.send("GET", "/api/drafts/\(id)", headers: ["Cookie": newSession]).status, 404,
                       "another device (no cookie) does not see it")
    }

    func testRefusals_sayWhy() throws {
        let served = try ServedSamples(for: self)
        let csrf = try served.csrfToken()
        let id = try createDraft(served)
        let badRole = try served.client.send("POST", "/api/drafts/\(id)/photos?role=side",
                                             headers: ["Content-Type": "multipart/form-data; boundary=B0undary", "X-CSRF-Token": csrf],
                                             body: multipart("a.jpg", Data(contentsOf: samples.appendingPathComponent("IMG_0002.jpg"))))
        XCTAssertEqual(badRole.status, 400)
        XCTAssertTrue(badRole.text.contains("role must be one of barcode, front, label, more"), badRole.text)
        let notAPhoto = try served.client.send("POST", "/api/drafts/\(id)/photos",
                                               headers: ["Content-Type": "multipart/form-data; boundary=B0undary", "X-CSRF-Token": csrf],
                                               body: multipart("a.jpg", Data("only text, no photo".utf8)))
        XCTAssertEqual(notAPhoto.status, 415, notAPhoto.text)
        let empty = try served.client.post("/api/drafts/\(id)/save", json: [:], headers: ["X-CSRF-Token": csrf])
        XCTAssertEqual(empty.status, 409, empty.text)
        XCTAssertTrue(empty.text.contains("no photo yet"), empty.text)
        _ = try addPhoto(served, id, "IMG_0002.jpg", role: "front")
        let noAgent = try served.client.post("/api/drafts/\(id)/save", json: ["note": "shelf 3"], headers: ["X-CSRF-Token": csrf])
        XCTAssertEqual(noAgent.status, 400, noAgent.text)
        let noCapture = try served.client.post("/api/drafts/\(id)/save", json: ["addTo": "ffffffff"], headers: ["X-CSRF-Token": csrf])
        XCTAssertEqual(noCapture.status, 404, noCapture.text)
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/..%2F..%2Fetc").status, 404)
        XCTAssertEqual(try served.client.send("GET", "/api/drafts/\(String(repeating: "0", count: 32))").status, 404)
        XCTAssertEqual(try XCTUnwrap(try served.client.send("GET", "/api/drafts/\(id)").object()["photos"] as? [Any]).count, 1,
                       "what was refused left the draft as it was")
    }

    func testHostileUploads_areRefusedAndLeaveTheDraftAsItWas() throws {
        let work = try ServedSamples.library(for: self)
        var config = try PipelineConfig.load(path: FilePath(work.folder.appendingPathComponent("pipeline.json").path))
        config.upload.maxFileMB = 1
        config.upload.maxRequestMB = 2
        let served = try ServedSamples(work: work, config: config, test: self)
        let csrf = try served.csrfToken()
        let id = try createDraft(served)
        _ = try addPhoto(served, id, "IMG_0002.jpg", role: "front")
        let headers = ["Content-Type": "multipart/form-data; boundary=B0undary", "X-CSRF-Token": csrf]
        // A JPEG's first bytes, then more than uploadMaxFileMB of anything.
        let big = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x41, count: (1 << 20) + 10)
        let tooBig = try served.client.send("POST", "/api/drafts/\(id)/photos?role=more", headers: headers, body: multipart("big.jpg", big))
        XCTAssertEqual(tooBig.status, 413, tooBig.text)
        XCTAssertTrue(tooBig.text.contains("uploadMaxFileMB"), tooBig.text)
        // Three photos under uploadMaxFileMB each, over uploadMaxRequestMB together.
        let medium = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x41, count: 900 << 10)
        var three = Data()
        for name in ["m1.jpg", "m2.jpg", "m3.jpg"] {
            three += Data("--B0undary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(name)\"\r\n\r\n".utf8)
                + medium + Data("\r\n".utf8)
        }
        let tooLong = try served.client.send("POST", "/api/drafts/\(id)/photos?role=more", headers: headers,
                                             body: three + Data("--B0undary--\r\n".utf8))
        XCTAssertEqual(tooLong.status, 413, tooLong.text)
        XCTAssertTrue(tooLong.text.contains("uploadMaxRequestMB"), tooLong.text)
        let cut = Data("--B0undary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"cut.jpg\"\r\n\r\n".utf8)
            + (try Data(contentsOf: samples.appendingPathComponent("IMG_0003.jpg"))).prefix(5000)
        let cutShort = try served.client.send("POST", "/api/drafts/\(id)/photos?role=label", headers: headers, body: cut)
        XCTAssertEqual(cutShort.status, 400, "a body without its closing boundary: \(cutShort.text)")
        let draft = try served.client.send("GET", "/api/drafts/\(id)").object()
        XCTAssertEqual((draft["photos"] as? [[String: Any]])?.compactMap { $0["role"] as? String }, ["front"])
        let folder = served.work.inbox.appendingPathComponent(".drafts/\(id)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["draft.json", "set", "thumbs"],
                       "no upload folder left behind")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("set").path),
                       ["IMG_0002.jpg"])
    }

    // MARK: - Helpers

    private func createDraft(_ served: ServedSamples) throws -> String {
        let made = try served.client.send("POST", "/api/drafts", headers: ["X-CSRF-Token": try served.csrfToken()])
        XCTAssertEqual(made.status, 201, made.text)
        let id = try XCTUnwrap(try made.object()["id"] as? String)
        XCTAssertEqual(made.headers["location"], "/api/drafts/\(id)")
        return id
    }

    /// Sends sample `name` (or `bytes` under its name) as the draft's `role` photo; returns the draft.
    private func addPhoto(_ served: ServedSamples, _ id: String, _ name: String, role: String, bytes: Data? = nil) throws -> [String: Any] {
        let photo = try bytes ?? Data(contentsOf: samples.appendingPathComponent(name))
        let answer = try served.client.send("POST", "/api/drafts/\(id)/photos?role=\(role)",
                                            headers: ["Content-Type": "multipart/form-data; boundary=B0undary",
                                                      "X-CSRF-Token": try served.csrfToken()],
                                            body: multipart(name, photo))
        XCTAssertEqual(answer.status, 200, answer.text)
        return try answer.object()
    }

    /// Sample `name` with a JPEG comment after its start: the same picture in other bytes.
    private func renewed(_ name: String) throws -> Data {
        let original = try Data(contentsOf: samples.appendingPathComponent(name))
        let comment = Data("draft test \(name)".utf8)
        let length = UInt16(comment.count + 2)
        return original.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]) + comment + original.dropFirst(2)
    }

    /// A browser session signed in with `token`: its cookie and its CSRF token.
    private func signIn(_ served: ServedSamples, _ token: String) throws -> (cookie: String, csrf: String) {
        let signIn = try served.client.post("/signin", form: [("token", token), ("next", "/capture")])
        let cookie = String(try XCTUnwrap(signIn.cookies.first).prefix { $0 != ";" })
        let session = try served.client.send("GET", "/api/session", headers: ["Cookie": cookie])
        return (cookie, try XCTUnwrap(try session.object()["csrfToken"] as? String))
    }

    private func sets(in inbox: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: inbox.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func multipart(_ filename: String, _ bytes: Data) -> Data {
        Data("--B0undary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\n\r\n".utf8)
            + bytes + Data("\r\n--B0undary--\r\n".utf8)
    }
}
