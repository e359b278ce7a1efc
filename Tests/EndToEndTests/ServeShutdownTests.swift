import Catalog
import Foundation
import Synchronization
import TestSupport
import XCTest
import Logging

/// `ingest serve --watch` stopped by SIGTERM: the server and the watch are services of one group
/// with one graceful shutdown.
final class ServeShutdownTests: XCTestCase {
    /// 30 photos at 1008×756, made once from gen_corpus.py: a set that takes a while to commit.
    nonisolated(unsafe) private static var largeSet: URL?

    override class func setUp() {
        super.setUp()
        largeSet = TemporaryFolder.prepared("shutdown-corpus") { folder in
            let generator = IngestHarness.shared.appendingPathComponent("corpus/gen_corpus.py").path
            let outcome = try? IngestHarness.execute(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", "python3 '\(generator)' corpus --sets 10 --seed 4 --width 1008 --height 756 --no-duplicates >/dev/null "
                    + "&& mkdir big && n=0 && for f in corpus/inbox/*/IMG_*.jpg; do n=$((n+1)); "
                    + "s=$(basename $(dirname $f)); if [ $n -le 30 ]; then cp $f big/${s}_$(basename $f); fi; done && rm -r corpus"],
                in: folder)
            return outcome?.status == 0
        }
    }

    override class func tearDown() {
        if let largeSet { try? FileManager.default.removeItem(at: largeSet) }
        super.tearDown()
    }

    func testSigterm_letsTheUploadInFlightFinish_commitsTheSetInFlight_andExits0() throws {
        let big = try XCTUnwrap(Self.largeSet, "gen_corpus.py could not make the photos (needs ../shared and the pip packages)")
            .appendingPathComponent("big")
        let upload = try UploadServer(for: self, settings: ["workers": 1], arguments: ["--watch", "--verbose"])
        let inbox = upload.folder.appendingPathComponent("inbox")
        try FileManager.default.copyItem(at: big, to: inbox.appendingPathComponent("big"))
        let photos = try FileManager.default.contentsOfDirectory(atPath: big.path).count
        _ = FileManager.default.createFile(atPath: inbox.appendingPathComponent("big/.ready").path, contents: nil)
        XCTAssertTrue(IngestHarness.eventually(within: 20) { upload.server.log.contains("run started") }, upload.server.log)

        // Half an upload sent; the rest only after the signal.
        let answer = Mutex<String?>(nil)
        let (url, token, folder) = (upload.url, try upload.csrfToken(), upload.folder)
        let sender = Thread {
            let reply = (try? UploadServer.partialUpload(url: url, token: token, folder: folder, then: "resume"))?.stdout ?? ""
            answer.withLock { $0 = reply }
        }
        sender.start()
        XCTAssertTrue(IngestHarness.eventually(within: 15) { !upload.staged.isEmpty }, "the half-sent photo is in staging")
        let logAtSignal = upload.server.log
        kill(upload.server.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.5)
        _ = FileManager.default.createFile(atPath: upload.folder.appendingPathComponent("resume").path, contents: nil)

        XCTAssertTrue(IngestHarness.eventually(within: 60) { !upload.server.process.isRunning }, upload.server.log)
        upload.server.process.waitUntilExit()
        XCTAssertEqual(upload.server.process.terminationStatus, 0, upload.server.log)
        let reply = try XCTUnwrap(IngestHarness.eventually(within: 10) { answer.withLock { $0 } != nil } ? answer.withLock { $0 } : nil)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 201"), "the upload in flight finished: \(reply)\n\(upload.server.log)")

        func committed(_ log: String) -> Bool {
            log.split(separator: "\n").contains { $0.contains("set committed") && $0.contains("set=big ") }
        }
        XCTAssertFalse(committed(logAtSignal), "the signal came while the set was in flight: \(logAtSignal)")
        XCTAssertTrue(committed(upload.server.log), "the set in flight was committed: \(upload.server.log)")
        let catalogue = try Catalogue(.sqlite(path: upload.folder.appendingPathComponent("library/catalog.sqlite").path),
                                      create: false, logger: .init(label: "test"))
        defer { try? catalogue.close() }
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(setName: "big")).reduce(0) { $0 + $1.photoCount }, photos)
        XCTAssertEqual(IngestHarness.files(under: inbox.appendingPathComponent("big")), [])
        XCTAssertEqual(upload.staged, [], "nothing is left in staging")
        let uploaded = upload.setsInInbox.filter { $0 != "big" }
        let catalogued = try catalogue.captures().contains { $0.setName != "big" }
        XCTAssertTrue(uploaded.count == 1 || catalogued, "the uploaded set is in the inbox, whole, or catalogued: \(uploaded)")
        XCTAssertEqual(try IngestHarness.libraryProblems(in: upload.folder), [])
    }
}
