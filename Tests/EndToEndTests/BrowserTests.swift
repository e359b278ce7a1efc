import Catalog
import Foundation
import TestSupport
import XCTest

/// The pages in a real browser: headless Chromium through chromium-driver (Selenium), driven by
/// `Tests/Browser/browser_test.py` over a generated corpus. Screenshots of every page are kept in
/// `.build/artefacts/browser` (outside git).
final class BrowserTests: XCTestCase {
    func testCatalogue_filterOpenMergeAndSplitBack_inChromium_withoutConsoleErrors() throws {
        let folder = try TemporaryFolder.make("browser")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        guard IngestHarness.generateCorpus(into: folder.appendingPathComponent("corpus"),
                                           ["--sets", "8", "--seed", "21", "--width", "800", "--height", "600"]) else {
            return XCTFail("gen_corpus.py failed (scripts/setup --test installs what it needs)")
        }
        try IngestHarness.writeConfig(["inbox": "corpus/inbox", "library": "library", "quarantine": "quarantine"], in: folder)
        let run = try IngestHarness.ingest(["run", "--quiet"], in: folder)
        XCTAssertTrue([0, 1].contains(run.status), run.stderr)
        let catalogue = try IngestHarness.catalogue(at: folder.appendingPathComponent("library/catalog.sqlite"))
        let shape = try Self.shape(catalogue)
        let (first, second) = try XCTUnwrap(try Self.neighbours(catalogue), "two captures of one set, one after the other")
        let splitAt = try XCTUnwrap(try catalogue.photos(ofCapture: second.id).first?.id)

        let server = try ServeHarness(in: folder, test: self)
        let artefacts = IngestHarness.packageRoot.appendingPathComponent(".build/artefacts/browser")
        let script = IngestHarness.packageRoot.appendingPathComponent("Tests/Browser/browser_test.py")
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["python3", script.path, server.url, artefacts.path, first.id, second.id, splitAt],
                                                in: folder, timeout: 240)
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\(outcome.stderr)\nserver log:\n\(server.log)")
        print(outcome.stdout)
        XCTAssertEqual(try Self.shape(catalogue), shape, "merged and split back: the same captures of the same photos")
        let kinds = try catalogue.edits(limit: 5).map(\.kind)
        XCTAssertEqual(kinds, [.split, .merge])
    }

    func testTokenServer_signInOnceThenCorrectAndMeetAnErrorPage_inChromium_withoutConsoleErrors() throws {
        let token = "correct-horse-battery-staple-42"
        let code = "4006381333931"
        let served = try ServedSamples(for: self, arguments: ["--listen", "127.0.0.1:0", "--token", token])
        let artefacts = IngestHarness.packageRoot.appendingPathComponent(".build/artefacts/browser")
        let script = IngestHarness.packageRoot.appendingPathComponent("Tests/Browser/signin_test.py")
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["python3", script.path, served.server.url, artefacts.path, token, code],
                                                in: served.work.folder, timeout: 240)
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\(outcome.stderr)\nserver log:\n\(served.server.log)")
        print(outcome.stdout)
        let last = try XCTUnwrap(outcome.stdout.split(separator: "\n").last.map(String.init))
        let capture = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])?["capture"])
        XCTAssertEqual(try served.catalogue().capture(id: capture)?.gtin13, code, "the barcode typed on the signed-in page")
        let edit = try XCTUnwrap(try served.catalogue().edits(limit: 1).first)
        XCTAssertEqual(edit.kind, .setBarcode)
        XCTAssertTrue(edit.origin.hasPrefix("web"), edit.origin)
    }

    func testCapturePage_atAPhonesWidth_uploadsASetThatIsCataloguedWithItsAgent_inChromium() throws {
        let upload = try UploadServer(for: self)
        let artefacts = IngestHarness.packageRoot.appendingPathComponent(".build/artefacts/browser")
        let script = IngestHarness.packageRoot.appendingPathComponent("Tests/Browser/capture_test.py")
        let photos = ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"].map { UploadServer.sample("single-product/\($0)") }
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, upload.url, artefacts.path] + photos,
                                                in: upload.folder, timeout: 240)
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\(outcome.stderr)\nserver log:\n\(upload.server.log)")
        print(outcome.stdout)
        let last = try XCTUnwrap(outcome.stdout.split(separator: "\n").last.map(String.init))
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])?["capture"])
        let catalogue = try IngestHarness.catalogue(at: upload.folder.appendingPathComponent("library/catalog.sqlite"))
        let capture = try XCTUnwrap(try catalogue.capture(id: id))
        XCTAssertEqual(capture.gtin13, "5902255046404")
        XCTAssertEqual(capture.agentId, "aisle-7-phone", "the agent typed on the page")
        XCTAssertEqual(capture.agentName, "Zoë Fernández")
        XCTAssertTrue(capture.requestId?.hasPrefix("capture-") == true, "\(capture.requestId ?? "no request id")")
        XCTAssertEqual(try catalogue.photos(ofCapture: id).count, 3)
        XCTAssertEqual(upload.setsInInbox, [], "the refused upload left nothing")
    }

    func testCaptureFlow_onAPhone_barcodeNamedAtOnce_retakeRemoveCut_saveAddToAndCancel_inChromium() throws {
        let upload = try UploadServer(for: self)
        let artefacts = IngestHarness.packageRoot.appendingPathComponent(".build/artefacts/browser")
        let script = IngestHarness.packageRoot.appendingPathComponent("Tests/Browser/capture_flow_test.py")
        let photos = ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"].map { UploadServer.sample("single-product/\($0)") }
        let drafts = upload.folder.appendingPathComponent("inbox/.drafts")
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["python3", script.path, upload.url, artefacts.path, drafts.path] + photos,
                                                in: upload.folder, timeout: 300)
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\(outcome.stderr)\nserver log:\n\(upload.server.log)")
        print(outcome.stdout)
        let last = try XCTUnwrap(outcome.stdout.split(separator: "\n").last.map(String.init))
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["capture"] as? String)
        let catalogue = try IngestHarness.catalogue(at: upload.folder.appendingPathComponent("library/catalog.sqlite"))
        let capture = try XCTUnwrap(try catalogue.capture(id: id))
        XCTAssertEqual(capture.gtin13, "5902255046404")
        XCTAssertEqual(capture.agentId, "aisle-3-phone", "the agent typed on the review")
        XCTAssertEqual(try catalogue.photos(ofCapture: id).count, 5, "three photos saved, two added to it")
        XCTAssertEqual(try catalogue.captures().count, 1, "the second save joined the first capture")
        let edit = try XCTUnwrap(try catalogue.edits(limit: 1).first)
        XCTAssertEqual(edit.kind, .merge)
        XCTAssertTrue(edit.origin.hasPrefix("capture flow"), edit.origin)
        XCTAssertEqual(upload.setsInInbox, [], "each saved set was ingested; the cancelled draft never reached the inbox")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drafts.path).filter { !$0.hasPrefix(".") }, [])
    }

    func testCaptureFlow_twoPhonesAtOnce_eachSeesAndSavesOnlyItsOwnDraft_inChromium() throws {
        let token = "two-phones-token-0123456789"
        let upload = try UploadServer(for: self, token: token)
        let artefacts = IngestHarness.packageRoot.appendingPathComponent(".build/artefacts/browser")
        let script = IngestHarness.packageRoot.appendingPathComponent("Tests/Browser/capture_sessions_test.py")
        let photos = ["single-product/IMG_0001.jpg", "single-product/IMG_0002.jpg", "rotated-and-formats/IMG_0013.jpg",
                      "rotated-and-formats/IMG_0014.png"].map(UploadServer.sample)
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["python3", script.path, upload.url, artefacts.path, token] + photos,
                                                in: upload.folder, timeout: 300)
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\(outcome.stderr)\nserver log:\n\(upload.server.log)")
        print(outcome.stdout)
        let last = try XCTUnwrap(outcome.stdout.split(separator: "\n").last.map(String.init))
        let ids = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])
        let catalogue = try IngestHarness.catalogue(at: upload.folder.appendingPathComponent("library/catalog.sqlite"))
        for (phone, code) in [("a", "5902255046404"), ("b", "0383935678262")] {
            let capture = try XCTUnwrap(try catalogue.capture(id: XCTUnwrap(ids[phone])), phone)
            XCTAssertEqual(capture.gtin13, code, phone)
            XCTAssertEqual(capture.agentId, "phone-\(phone)")
            XCTAssertEqual(try catalogue.photos(ofCapture: capture.id).count, 2, "phone \(phone)'s own two photos")
        }
    }

    /// Two captures next to each other in the catalogue's order, the second taken after every photo
    /// of the first (so that a split at its first photo undoes their merge), whose barcodes do not
    /// forbid a merge (at most one of them has one).
    private static func neighbours(_ catalogue: Catalogue) throws -> (Capture, Capture)? {
        let captures = try catalogue.captures()
        for (later, earlier) in zip(captures, captures.dropFirst()) where later.barcode == nil || earlier.barcode == nil {
            let last = try catalogue.photos(ofCapture: earlier.id).map(\.takenUTC).max() ?? .infinity
            if try catalogue.photos(ofCapture: later.id).allSatisfy({ $0.takenUTC > last }) { return (earlier, later) }
        }
        return nil
    }

    /// The captures as sorted lists of photo ids: what a merge and its split back must restore.
    private static func shape(_ catalogue: Catalogue) throws -> [[String]] {
        try catalogue.captures().map { try catalogue.photos(ofCapture: $0.id).map(\.id) }.sorted { $0[0] < $1[0] }
    }
}
