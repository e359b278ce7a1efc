import Catalog
import Foundation
import Logging
import TestSupport
import XCTest
import Vocabulary

/// `ingest serve` killed (SIGKILL) while it makes corrections: the catalogue is always as it was
/// before the request or as the request left it, never between — and the edits agree with it.
final class ServeKillTests: XCTestCase {
    /// Photos of the big capture: enough that a split or its undo rewrites hundreds of rows and a
    /// kill lands inside the transaction.
    private let photoCount = 600

    /// A catalogue of one capture of `photoCount` photos (rows only: corrections never touch files).
    private func makeCatalogue(in folder: URL) throws -> Catalogue {
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                       "quarantine": "quarantine"], in: folder)
        let catalogue = try Catalogue(path: folder.appendingPathComponent("library/catalog.sqlite").path,
                                      logger: Logger(label: "test"))
        let photos = (0 ..< photoCount).map { index in
            Photo(id: String(format: "p%05d", index), captureId: "big-capture", position: index, originalName: "\(index).jpg",
                  sourcePath: "\(index).jpg", originalPath: "originals/s/\(index).jpg", thumbPath: "thumbs/s/\(index).jpg",
                  thumbWidth: 400, thumbHeight: 300, sha256: String(format: "%064x", index), byteSize: 1000, format: .jpeg,
                  width: 4000, height: 3000, orientation: 1, make: nil, model: nil, takenAt: "2026-11-21T10:00:00Z",
                  takenUTC: 1_700_000_000 + Double(index), timeSource: .exif, sharpness: 0.5, contrast: 0.5,
                  brightness: 0.5, decodeConfidence: nil, quality: 0.8, rating: .good)
        }
        let capture = Capture(id: "big-capture", runId: nil, setName: "s", barcode: nil, symbology: nil, gtin13: nil,
                              capturedAt: "2026-11-21T10:00:00Z", capturedUTC: 1_700_000_000, timeSource: .exif,
                              photoCount: photoCount, quality: 0.8, rating: .good, createdAt: "t")
        try catalogue.commit(CommittedSet(captures: [capture], photos: photos, hits: []))
        return catalogue
    }

    /// The captures as lists of photo ids, sorted: what a split changes, whatever the new capture's id.
    private func shape(_ catalogue: Catalogue) throws -> [[String]] {
        try catalogue.captures().map { try catalogue.photos(ofCapture: $0.id).map(\.id) }.sorted { $0.first! < $1.first! }
    }

    /// Every invariant a consistent catalogue keeps; returns its shape.
    private func checkConsistent(_ folder: URL, round: Int) throws -> [[String]] {
        let path = folder.appendingPathComponent("library/catalog.sqlite").path
        let check = try IngestHarness.shell("""
            python3 -c "import sqlite3; db = sqlite3.connect('\(path)'); \
            print(db.execute('PRAGMA integrity_check').fetchone()[0], len(db.execute('PRAGMA foreign_key_check').fetchall()), \
            db.execute('SELECT count(*) FROM capture c WHERE photo_count != (SELECT count(*) FROM photo p WHERE p.capture_id = c.id) \
            OR (SELECT max(position) FROM photo p WHERE p.capture_id = c.id) != photo_count - 1').fetchone()[0])"
            """, in: folder)
        XCTAssertEqual(check, "ok 0 0\n", "round \(round): integrity, foreign keys, counts and positions")
        let catalogue = try Catalogue(path: path, create: false, logger: Logger(label: "test"))
        defer { try? catalogue.close() }
        let shape = try shape(catalogue)
        XCTAssertEqual(shape.flatMap { $0 }.sorted(), (0 ..< photoCount).map { String(format: "p%05d", $0) },
                       "round \(round): every photo in exactly one capture")
        if let last = try catalogue.edits(limit: 1).first {
            for snapshot in last.after {
                XCTAssertEqual(try catalogue.photos(ofCapture: snapshot.capture.id).map(\.id), snapshot.photos.map(\.id),
                               "round \(round): the last edit (#\(last.id)) left the catalogue as it is")
            }
        }
        return shape
    }

    func testKilledMidCorrection_catalogueIsAsBeforeOrAsAfter() throws {
        let folder = try TemporaryFolder.make("serve-kill")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try makeCatalogue(in: folder).close()
        let whole = [(0 ..< photoCount).map { String(format: "p%05d", $0) }]
        let half = photoCount / 2
        let split = [Array(whole[0][..<half]), Array(whole[0][half...])]

        var server = try ServeHarness(in: folder, test: self)
        // One uninterrupted split and undo: how long a correction takes here.
        var headers = ["X-CSRF-Token": try XCTUnwrap(try server.client.send("GET", "/api/session").object()["csrfToken"] as? String)]
        let started = Date()
        XCTAssertEqual(try server.client.post("/api/captures/big-capture/split", json: ["at": split[1][0]], headers: headers).status, 200)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(try server.client.post("/api/edits/undo", json: [:], headers: headers).status, 200)

        var generator = SystemRandomNumberGenerator()
        var state = whole
        var (unfinished, landed) = (0, 0)
        let rounds = 16
        for round in 0 ..< rounds {
            let asked = state == whole ? split : whole
            let request: () throws -> HTTPClient.Response = state == whole
                ? { [server, headers] in try server.client.post("/api/captures/big-capture/split", json: ["at": split[1][0]], headers: headers) }
                : { [server, headers] in try server.client.post("/api/edits/undo", json: [:], headers: headers) }
            // A moment drawn over the request's time and a little after: kills before, during and after it.
            let delay = Double.random(in: 0 ... took * 1.3, using: &generator)
            let pid = server.process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { kill(pid, SIGKILL) }
            let answered = (try? request())?.status == 200
            server.process.waitUntilExit()
            state = try checkConsistent(folder, round: round)
            XCTAssertTrue(state == asked || state == (asked == split ? whole : split), "round \(round): \(state.map(\.count))")
            if answered { XCTAssertEqual(state, asked, "round \(round): answered, so committed") }
            if !answered { unfinished += 1 }
            if !answered && state == asked { landed += 1 }
            server = try ServeHarness(in: folder, test: self)
            headers = ["X-CSRF-Token": try XCTUnwrap(try server.client.send("GET", "/api/session").object()["csrfToken"] as? String)]
        }
        print("serve kill test: \(rounds) kills, a correction took \(Int(took * 1000)) ms; \(unfinished) killed before the answer, "
            + "\(landed) of them after the commit")
        XCTAssertGreaterThan(unfinished, 0, "some kills must land before the answer")
    }
}
