import Foundation
import TestSupport
import XCTest
import Catalog

/// `POST /api/sets` over real HTTP (curl, the test client, raw sockets): a set uploaded is
/// catalogued by `serve --watch` with its barcode, product and agent; every refusal answers with its
/// status and a reason; and whatever happens to an upload — refused, cut off, stalled, the server
/// killed, the disk full — the inbox holds complete sets only.
final class UploadTests: XCTestCase {
    private let single = ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"].map { UploadServer.sample("single-product/\($0)") }

    func testUpload_isCataloguedByTheWatchInTheSameProcess_withBarcodeProductAndAgent() throws {
        let upload = try UploadServer(for: self)
        let answer = try upload.upload(single.map { "photo=@\($0)" }
            + ["agentId=chef", "agentName=Practical Chef", "requestId=r-17", "note=aisle 4, top shelf"])
        XCTAssertEqual(answer.status, 201, "\(answer.body)")
        let set = try XCTUnwrap(answer.set)
        XCTAssertEqual(answer.body["status"] as? String, "/api/sets/\(set)")
        XCTAssertEqual(answer.body["photos"] as? [String], ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"])

        let done = try upload.wait(for: set, state: "ingested")
        let id = try XCTUnwrap((done["captures"] as? [String])?.first)
        XCTAssertEqual((done["captures"] as? [String])?.count, 1)
        let catalogue = try IngestHarness.catalogue(at: upload.folder.appendingPathComponent("library/catalog.sqlite"))
        let capture = try XCTUnwrap(try catalogue.capture(id: id))
        XCTAssertEqual(capture.gtin13, "5902255046404")
        XCTAssertEqual(capture.setName, set)
        XCTAssertEqual(capture.agentId, "chef")
        XCTAssertEqual(capture.agentName, "Practical Chef")
        XCTAssertEqual(capture.requestId, "r-17")
        XCTAssertEqual(capture.note, "aisle 4, top shelf")
        XCTAssertEqual(try catalogue.photos(ofCapture: id).count, 3)
        let shown = try XCTUnwrap(try upload.server.client.send("GET", "/api/captures/\(id)").json() as? [String: Any])
        XCTAssertEqual((shown["product"] as? [String: Any])?["name"] as? String, "Mleko UHT 3,2%", "\(shown)")
        XCTAssertEqual(upload.setsInInbox, [], "the set left the inbox")
        XCTAssertEqual(upload.staged, [], "nothing stays in staging")

        // A set none of whose photos can be used: quarantined, with the reason (its capture.json stays
        // in the inbox, as for any set that made no capture, and does not make it look waiting).
        let bad = try upload.upload(["photo=@\(UploadServer.sample("bad-files/zz_truncated.jpg"))", "agentId=chef"])
        XCTAssertEqual(bad.status, 201, "\(bad.body)")
        let quarantined = try upload.wait(for: try XCTUnwrap(bad.set), state: "quarantined")
        let reasons = try XCTUnwrap(quarantined["setAside"] as? [[String: String]])
        XCTAssertEqual(reasons.map { $0["file"] }, ["zz_truncated.jpg"])
        XCTAssertTrue(reasons.first?["reason"]?.contains("truncated") == true, "\(reasons)")
    }

    func testTwoUploadsAtOnce_becomeTwoSets_bothCatalogued() throws {
        let upload = try UploadServer(for: self)
        let token = try upload.csrfToken()
        let rotated = ["IMG_0013.jpg", "IMG_0014.png", "IMG_0015.webp"].map { UploadServer.sample("rotated-and-formats/\($0)") }
        func curl(_ photos: [String]) -> String {
            "curl -s -o - -w '\\n%{http_code}' -H 'X-CSRF-Token: \(token)' "
                + photos.map { "-F 'photo=@\($0)'" }.joined(separator: " ") + " \(upload.url)api/sets"
        }
        let output = try IngestHarness.shell("(\(curl(single)) > a.out) & (\(curl(rotated)) > b.out) & wait; cat a.out; echo; echo ---; cat b.out",
                                             in: upload.folder)
        let answers = output.components(separatedBy: "\n---\n").map(UploadServer.answer)
        XCTAssertEqual(answers.map(\.status), [201, 201], output)
        let sets = answers.compactMap(\.set)
        XCTAssertEqual(Set(sets).count, 2, "two sets: \(sets)")
        let photos = try sets.map { set -> Int in
            let done = try upload.wait(for: set, state: "ingested")
            let catalogue = try IngestHarness.catalogue(at: upload.folder.appendingPathComponent("library/catalog.sqlite"))
            return try (done["captures"] as? [String] ?? []).reduce(0) { $0 + (try catalogue.photos(ofCapture: $1).count) }
        }
        XCTAssertEqual(photos, [3, 3])
        XCTAssertEqual(upload.setsInInbox, [])
    }

    func testRefusals_answerWithTheirStatusAndReason_andLeaveNothingBehind() throws {
        let upload = try UploadServer(for: self, settings: ["uploadMaxFiles": 2, "uploadMaxFileMB": 1, "uploadMaxRequestMB": 2],
                                      arguments: [])
        let big = upload.folder.appendingPathComponent("big.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 1_500_000)).write(to: big)
        let huge = upload.folder.appendingPathComponent("huge.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 3_000_000)).write(to: huge)
        let photo = "photo=@\(single[0])"
        let cases: [(parts: [String], authorised: Bool, status: Int, says: String)] = [
            (["photo=@\(UploadServer.sample("bad-files/not_a_photo.jpg"))"], true, 415, "'not_a_photo.jpg' is not a photo"),
            ([photo, "photo=@\(UploadServer.sample("bad-files/zz_empty.jpg"))"], true, 415, "'zz_empty.jpg' is not a photo"),
            (["agentId=chef"], true, 400, "holds no photo"),
            ([photo, "colour=red"], true, 400, "unknown field 'colour'"),
            ([photo, "agentName=Nobody"], true, 400, "agentId: required"),
            ([photo, "agentId=" + String(repeating: "x", count: 1001)], true, 400, "at most 1000 characters"),
            ([photo, photo, photo], true, 413, "at most 2 photos (uploadMaxFiles)"),
            (["photo=@\(big.path)"], true, 413, "'big.jpg' is larger than 1 MB (uploadMaxFileMB)"),
            (["photo=@\(huge.path)"], true, 413, "larger than 2 MB (uploadMaxRequestMB)"),
            ([photo], false, 403, "no valid CSRF token"),
        ]
        for (parts, authorised, status, says) in cases {
            let answer = try upload.upload(parts, authorised: authorised)
            XCTAssertEqual(answer.status, status, "\(parts.map { String($0.prefix(60)) }): \(answer.body)")
            XCTAssertTrue(answer.message.contains(says), "\(answer.message) should say \(says)")
        }
        let client = upload.server.client
        let csrf = ["X-CSRF-Token": try upload.csrfToken()]
        let json = try client.send("POST", "/api/sets", headers: csrf.merging(["Content-Type": "application/json"]) { $1 },
                                   body: Data("{}".utf8))
        XCTAssertEqual(json.status, 400, "not multipart")
        let broken = try client.send("POST", "/api/sets", headers: csrf.merging(["Content-Type": "multipart/form-data; boundary=b"]) { $1 },
                                     body: Data("--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n\u{FF}".utf8))
        let elsewhere = try client.send("POST", "/captures/merge", headers: csrf.merging(["Content-Type": "multipart/form-data; boundary=b"]) { $1 },
                                        body: Data(count: 200_000))
        XCTAssertEqual(elsewhere.status, 413, "a large body sent to a form's route: \(String(decoding: elsewhere.body, as: UTF8.self))")
        XCTAssertEqual(broken.status, 400, "a body without its closing boundary: \(String(decoding: broken.body, as: UTF8.self))")
        XCTAssertEqual(upload.setsInInbox, [], "no refused upload reached the inbox")
        XCTAssertEqual(upload.staged, [], "and none left a file in staging")

        let accepted = try upload.upload([photo])
        XCTAssertEqual(accepted.status, 201, "\(accepted.body)")
        XCTAssertEqual(try upload.status(try XCTUnwrap(accepted.set))["state"] as? String, "waiting", "no watch in this server")
        XCTAssertEqual(upload.setsInInbox, [accepted.set])
    }

    func testReadOnlyServerRefusesUploads_andATokenServerTakesThemWithItsBearerToken() throws {
        let readOnly = try UploadServer(for: self, arguments: ["--read-only"])
        let refused = try readOnly.upload(["photo=@\(single[0])"])
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(refused.message.contains("--read-only"), refused.message)
        XCTAssertEqual(readOnly.setsInInbox, [])

        let token = "correct-horse-battery-staple-42"
        let guarded = try UploadServer(for: self, arguments: [], token: token)
        XCTAssertEqual(try guarded.upload(["photo=@\(single[0])"], authorised: false).status, 401)
        let accepted = try guarded.upload(["photo=@\(single[0])"])
        XCTAssertEqual(accepted.status, 201, "\(accepted.body)")
        XCTAssertEqual(guarded.setsInInbox, [accepted.set])
    }

    func testDisk_belowTheMarginRefusesWith507_andFillingUpMidUploadLeavesNothing() throws {
        let margin = try UploadServer(for: self, settings: ["minFreeMB": 100_000_000], arguments: [])
        let refused = try margin.upload(["photo=@\(single[0])"])
        XCTAssertEqual(refused.status, 507, "\(refused.body)")
        XCTAssertTrue(refused.message.contains("minFreeMB"), refused.message)
        XCTAssertEqual(margin.setsInInbox, [])
        XCTAssertEqual(margin.staged, [])

        // A file-size limit on the server: a write past it fails (EFBIG, as ENOSPC on a full disk).
        let full = try UploadServer(for: self, arguments: [], launcher: ["/usr/bin/prlimit", "--fsize=400000"])
        let big = full.folder.appendingPathComponent("big.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 1_000_000)).write(to: big)
        let cut = try full.upload(["photo=@\(single[0])", "photo=@\(big.path)"])
        XCTAssertEqual(cut.status, 507, "\(cut.body)")
        XCTAssertTrue(cut.message.contains("disk is full"), cut.message)
        XCTAssertFalse(cut.message.contains(full.folder.path), "no server path in the answer: \(cut.message)")
        XCTAssertEqual(full.setsInInbox, [])
        XCTAssertEqual(full.staged, [], "the photo written before the full one is removed too")
        XCTAssertEqual(try full.upload(["photo=@\(single[0])"]).status, 201, "smaller uploads still go in")
    }

    func testClientThatDisconnectsHalfway_orStalls_leavesNothing() throws {
        let upload = try UploadServer(for: self, settings: ["uploadIdleSeconds": 1], arguments: [])
        let disconnect = try upload.partialUpload(then: "close")
        XCTAssertEqual(disconnect.status, 0, disconnect.stderr)
        let stall = try upload.partialUpload(then: "wait")
        XCTAssertEqual(stall.status, 0, stall.stderr)
        XCTAssertTrue(stall.stdout.hasPrefix("HTTP/1.1 408"), "a stalled upload is cut off: \(stall.stdout)")
        XCTAssertTrue(stall.stdout.contains("uploadIdleSeconds"), stall.stdout)
        try Self.waitUntil { upload.staged.isEmpty }
        XCTAssertEqual(upload.staged, [], "\(upload.server.log)")
        XCTAssertEqual(upload.setsInInbox, [])
    }

    func testExpect100Continue_isAnsweredBeforeTheBodyIsSent() throws {
        // curl holds back a body over 1 MB until the server says 100 Continue (or a second passes).
        let upload = try UploadServer(for: self, arguments: [])
        let exchange = try upload.partialUpload(then: "expect")
        XCTAssertEqual(exchange.status, 0, exchange.stderr)
        XCTAssertTrue(exchange.stdout.hasPrefix("HTTP/1.1 100 Continue\r\n\r\n"), exchange.stdout)
        XCTAssertTrue(exchange.stdout.contains("HTTP/1.1 201 Created"), exchange.stdout)
    }

    func testServerKilledMidUpload_leavesTheInboxWithCompleteSetsOnly_andTheNextStartSweeps() throws {
        let upload = try UploadServer(for: self, arguments: [])
        let complete = try upload.upload(["photo=@\(single[0])"])
        XCTAssertEqual(complete.status, 201)
        let (url, token, folder) = (upload.url, try upload.csrfToken(), upload.folder)
        let sender = Thread { _ = try? UploadServer.partialUpload(url: url, token: token, folder: folder, then: "wait") }
        sender.start()
        try Self.waitUntil { !upload.staged.isEmpty }
        XCTAssertFalse(upload.staged.isEmpty, "the half-sent photo is in staging")
        kill(upload.server.process.processIdentifier, SIGKILL)
        upload.server.process.waitUntilExit()
        XCTAssertEqual(upload.setsInInbox, [complete.set], "the killed upload is not in the inbox")

        let restarted = try ServeHarness(in: upload.folder, test: self)
        try Self.waitUntil { upload.staged.isEmpty }
        XCTAssertEqual(upload.staged, [], "the next start removes what the killed server staged: \(restarted.log)")
        XCTAssertTrue(restarted.log.contains("removed uploads a stopped server left unfinished"), restarted.log)
        XCTAssertEqual(upload.setsInInbox, [complete.set])
    }

    private static func waitUntil(timeout: Double = 15, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(), Date() < deadline { usleep(50_000) }
    }
}
