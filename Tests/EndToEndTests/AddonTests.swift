import Foundation
import TestSupport
import Vocabulary
import XCTest
import Catalog

/// The 2- and 5-digit add-ons beside EAN-13 and UPC codes (books, magazines): read on the real
/// photos of `realphotos/barcodes`' extension groups, stored apart from the GTIN, and shown by
/// `show`, `list --json`, the CSV, the API and the capture page.
final class AddonTests: XCTestCase {
    /// The extension photos, each its own set in a work folder, and what the TSV says of each: the
    /// GTIN-13 and the add-on (the TSV holds them one after the other).
    private func extensionPhotos() throws -> (work: URL, expected: [String: (gtin: String, addon: String)]) {
        let work = try TemporaryFolder.make("addons")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        var expected: [String: (gtin: String, addon: String)] = [:]
        for photo in try RealPhotos.withCodes() where photo.group.contains("extension") {
            let set = ((photo.path as NSString).lastPathComponent as NSString).deletingPathExtension
            try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox/\(set)"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo.path,
                                             toPath: work.appendingPathComponent("inbox/\(set)/\((photo.path as NSString).lastPathComponent)").path)
            expected[set] = (String(photo.text.prefix(13)), String(photo.text.dropFirst(13)))
        }
        // minPixels 8: the photos are crops of codes.
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "quarantine": "quarantine", "minPixels": 8], in: work)
        return (work, expected)
    }

    func testAddons_ofRealBooksAndMagazines_areReadAndStoredApartFromTheGTIN() throws {
        let (work, expected) = try extensionPhotos()
        XCTAssertEqual(expected.count, 11)
        let run = try IngestHarness.ingest(["run", "--quiet"], in: work)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        var read = 0
        for capture in try catalogue.captures() {
            let want = try XCTUnwrap(expected[capture.setName])
            XCTAssertEqual(capture.gtin13, want.gtin, "\(capture.setName): the GTIN alone is the key")
            if let addon = capture.addon {
                XCTAssertEqual(addon, want.addon, "\(capture.setName): a wrong add-on")
                read += 1
                let hits = try catalogue.photos(ofCapture: capture.id).flatMap { try catalogue.hits(ofPhoto: $0.id) }
                XCTAssertTrue(hits.contains { $0.gtin13 == want.gtin && $0.addon == addon }, "\(capture.setName): the hit has it too")
            }
        }
        // 9 of the 11: ZBar reads no add-on on ean13-extension-1-38 at all, and that of
        // upca-extension-1-19 at one scale only, which is not enough for an add-on to count.
        XCTAssertGreaterThanOrEqual(read, 9, "add-ons read")

        let book = try XCTUnwrap(try catalogue.captures().first { $0.setName == "ean13-extension-1-1" })
        let show = try IngestHarness.ingest(["show", book.id], in: work)
        XCTAssertTrue(show.stdout.contains("GTIN-13 9780735200449, add-on 51299"), show.stdout)
        let list = try IngestHarness.ingest(["list", "--json", "--set", "ean13-extension-1-1"], in: work)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.first?["addon"] as? String, "51299")
        XCTAssertEqual(listed.first?["gtin13"] as? String, "9780735200449")
        let csv = try IngestHarness.shell(
            "'\(IngestHarness.binary.path)' export --csv - | python3 -c 'import csv, sys; "
                + "print(\"\\n\".join(r[\"set_name\"] + \" \" + r[\"gtin13\"] + \" \" + r[\"addon\"] for r in csv.DictReader(sys.stdin)))'",
            in: work)
        XCTAssertTrue(csv.contains("ean13-extension-1-1 9780735200449 51299\n"), csv)

        let server = try ServeHarness(in: work, test: self)
        let api = try server.client.send("GET", "/api/captures/\(book.id)")
        XCTAssertEqual((try api.json() as? [String: Any])?["addon"] as? String, "51299", api.text)
        let page = try server.client.send("GET", "/captures/\(book.id)")
        XCTAssertTrue(page.text.contains("add-on <span class=\"addon\">51299</span>"), page.text)
    }

    func testSetBarcode_toAnotherCode_dropsTheAddon_andUndoBringsItBack() throws {
        let (work, _) = try extensionPhotos()
        try IngestHarness.ingest(["run", "--quiet"], in: work)
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        let book = try XCTUnwrap(try catalogue.captures().first { $0.setName == "ean13-extension-1-1" })
        XCTAssertEqual(book.addon, "51299")
        let set = try IngestHarness.ingest(["set-barcode", book.id, "4006381333931"], in: work)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertNil(try catalogue.capture(id: book.id)?.addon, "the add-on was the old code's")
        let undo = try IngestHarness.ingest(["undo"], in: work)
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(try catalogue.capture(id: book.id)?.addon, "51299")
    }
}
