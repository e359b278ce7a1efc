@testable import Catalog
import Foundation
import TestSupport
import XCTest

/// Free-text search (`CaptureFilter.search`) through the searched text the triggers of `v8-search`
/// keep: whichever way a term is looked up (the trigram index for a term in few captures, the text
/// read newest first for a frequent or short one), the captures are those whose set name, code, or
/// product name or brands hold the term, folded; and the text follows every change of them.
final class CatalogueSearchTests: CatalogueTestCase {
    /// More captures than the trigram index's lookup by id takes, so that a frequent term is read
    /// the other way: 1,200 captures in 13 set names (some accented), every third with a code, and
    /// products for some codes.
    private func fillBulk(_ catalogue: Catalogue) throws {
        XCTAssertGreaterThan(1200, CaptureFilter.fewMatches)
        var captures: [Capture] = []
        var photos: [Photo] = []
        for index in 0 ..< 1200 {
            let code = index % 3 == 0 ? gtin13(index % 40) : nil
            let set = (index % 2 == 0 ? "Épicerie fine-" : "rayon \"B\"-") + String(index % 13)
            // Several captures share a time, so that ties are ordered by id.
            captures.append(makeCapture(id: String(format: "bulk-%05d", index), setName: set, barcode: code, gtin13: code,
                                        capturedUTC: 1_700_000_000 + Double(index / 3)))
            photos.append(makePhoto(id: "bulk-p\(index)", captureId: captures[index].id, seed: 1000 + index))
        }
        try catalogue.commit(CommittedSet(captures: captures, photos: photos, hits: []))
        var products: [Product] = []
        for number in stride(from: 0, to: 40, by: 4) {
            var product = Product(gtin14: "0" + gtin13(number), code: gtin13(number), name: "Crème brûlée n°\(number)",
                                  source: .off)
            product.brands = number % 8 == 0 ? "Señor Postre" : "MAISON"
            products.append(product)
        }
        XCTAssertEqual(try catalogue.upsertProducts(products, replaceManual: false), products.count)
    }

    /// A valid GTIN-13 for `number`: 590123 and the number, with its check digit.
    private func gtin13(_ number: Int) -> String {
        let body = "590123" + String(format: "%06d", number)
        let digits = body.compactMap(\.wholeNumberValue)
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return body + String((10 - sum % 10) % 10)
    }

    /// What search must find, worked out from every capture and product read back: the ids, newest
    /// first, of captures one of whose folded parts contains the folded term.
    private func expected(_ term: String, _ catalogue: Catalogue) throws -> [String] {
        let captures = try catalogue.captures()
        let products = try catalogue.products(forGTIN13s: Set(captures.compactMap(\.gtin13)))
        let folded = CaptureFilter.searchTerm(term)
        return captures.filter { capture in
            let product = capture.gtin13.flatMap { products[$0] }
            let parts = [capture.setName, capture.barcode, capture.gtin13, product?.name, product?.brands].compactMap { $0 }
            return folded.isEmpty || parts.contains { Catalogue.fold($0).contains(folded) }
        }.map(\.id)
    }

    private func found(_ term: String, _ catalogue: Catalogue, limit: Int? = nil,
                       before: CaptureCursor? = nil) throws -> [String] {
        try catalogue.captures(matching: CaptureFilter(search: term), limit: limit, before: before).map(\.id)
    }

    func testSearch_everyWayOfLookingUp_findsWhatReadingEveryCaptureFinds() {
        onEveryBackend { catalogue in
            try fillBulk(catalogue)
            let terms = [
                "EPICERIE", // 600 captures: read newest first
                "fine-12", "n°8", "maison", "señor", // tens of captures: by id from the trigram index
                "e-", "°", // too short for a trigram
                "\"b\"-1", "590123000004", "nowhere at all", "\u{1F}rayon", "",
            ]
            for term in terms {
                let want = try expected(term, catalogue)
                XCTAssertEqual(try found(term, catalogue), want, "\(term)")
                XCTAssertEqual(try catalogue.count(matching: CaptureFilter(search: term)), want.count, "\(term)")
            }
            // The terms take the ways they are listed for.
            XCTAssertEqual(try expected("EPICERIE", catalogue).count, 600)
            for term in ["fine-12", "n°8", "maison", "señor"] {
                XCTAssertTrue((1 ... CaptureFilter.fewMatches).contains(try expected(term, catalogue).count), term)
            }
        }
    }

    func testSearch_pagesOfAFrequentTerm_joinIntoEveryMatchOnce() {
        onEveryBackend { catalogue in
            try fillBulk(catalogue)
            var pages: [String] = []
            var before: CaptureCursor?
            while true {
                let page = try catalogue.captures(matching: CaptureFilter(search: "rayon"), limit: 170, before: before)
                guard let last = page.last else { break }
                pages += page.map(\.id)
                before = CaptureCursor(capturedUTC: last.capturedUTC, id: last.id)
            }
            XCTAssertEqual(pages, try expected("rayon", catalogue))
            XCTAssertEqual(pages.count, 600)
        }
    }

    func testSearch_followsCommitsProductsCorrectionsAndDeletes() {
        onEveryBackend(onDisk: true) { catalogue in
            try catalogue.commit(makeSet(captureId: "a", setName: "aisle-4", firstSeed: 1, capturedUTC: 100))
            try catalogue.commit(makeSet(captureId: "b", setName: "aisle-5", firstSeed: 10, capturedUTC: 200))
            XCTAssertEqual(try found("aisle", catalogue), ["b", "a"])
            XCTAssertEqual(try found("marker", catalogue), [], "no product yet")

            // A product imported after the captures, renamed, then removed.
            var marker = Product(gtin14: "04006381333931", code: "4006381333931", name: "Marker", source: .off)
            marker.lastModified = 1
            _ = try catalogue.upsertProducts([marker], replaceManual: false)
            XCTAssertEqual(try found("MARKER", catalogue), ["b", "a"])
            marker.name = "Highlighter"
            marker.lastModified = 2
            _ = try catalogue.upsertProducts([marker], replaceManual: false)
            XCTAssertEqual(try found("marker", catalogue), [])
            XCTAssertEqual(try found("highlight", catalogue), ["b", "a"])
            try catalogue.write { db in _ = try db.execute("DELETE FROM product", []) }
            XCTAssertEqual(try found("highlight", catalogue), [])
            _ = try catalogue.upsertProducts([marker], replaceManual: false)

            // A correction gives b another code (no product): b's text follows; its undo brings it back.
            let edit = try catalogue.applyEdit(to: ["b"], origin: "test", madeAt: "t") { found in
                var changed = found[0]
                (changed.capture.barcode, changed.capture.gtin13) = ("5901234123457", "5901234123457")
                return EditPlan(kind: .setBarcode, summary: "code", after: [changed])
            }
            XCTAssertEqual(try found("highlight", catalogue), ["a"])
            XCTAssertEqual(try found("5901234123457", catalogue), ["b"])
            _ = try catalogue.undoEdit(id: edit.id, origin: "test", madeAt: "t2")
            XCTAssertEqual(try found("highlight", catalogue), ["b", "a"])
            XCTAssertEqual(try found("5901234123457", catalogue), [])

            // A deleted capture is not found; its text is gone with it.
            _ = try catalogue.applyEdit(to: ["a"], origin: "test", madeAt: "t3") { _ in
                EditPlan(kind: .delete, summary: "delete", after: [])
            }
            XCTAssertEqual(try found("aisle", catalogue), ["b"])
            XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM capture_text") }, 1)
        }
    }

    func testCopy_intoPostgreSQL_makesTheSearchedTextThere() {
        onBackend(.postgres) {
            let sqlite = try makeCatalogue(on: .sqlite)
            try sqlite.commit(makeSet(captureId: "a", setName: "Épicerie", firstSeed: 1))
            var marker = Product(gtin14: "04006381333931", code: "4006381333931", name: "Crème", source: .off)
            marker.brands = "Señor"
            _ = try sqlite.upsertProducts([marker], replaceManual: false)
            let postgres = try makeCatalogue(on: .postgres)
            defer { try? postgres.close() }
            _ = try sqlite.copy(to: postgres)
            for term in ["epicerie", "CREME", "senor", "4006381333931"] {
                XCTAssertEqual(try found(term, postgres), ["a"], term)
            }
        }
    }

    /// Rows of `capture_text` whose text is not what `ingest_fold` makes of their capture now, or
    /// that wait to be folded: none, whenever ingest's own transactions have committed.
    private func stale(_ catalogue: Catalogue) throws -> Int {
        try catalogue.read { db in
            try db.scalar(Int.self, """
                SELECT count(*) FROM capture_text t JOIN capture c ON c.id = t.capture_id
                WHERE t.unfolded OR t.text <> \(SearchSchema.text(of: "c", .sqlite))
                """) ?? -1
        }
    }

    func testSearchText_ofEveryCaptureIngestWrites_isFoldedByTheTimeItCommits() throws {
        let catalogue = try makeCatalogue(on: .sqlite)
        defer { try? catalogue.close() }
        try fillBulk(catalogue)
        try catalogue.commit(makeSet(captureId: "greek", setName: "ΟΔΥΣΣΕΥΣ Straße ﬁne", firstSeed: 5000))
        XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM capture_text") }, 1201)
        XCTAssertEqual(try stale(catalogue), 0)
        XCTAssertEqual(try found(Catalogue.fold("ΟΔΥΣΣΕΥΣ"), catalogue), ["greek"])
    }

    func testSQLiteLower_ofEveryASCIIText_isCatalogueFold() throws {
        // v9's triggers fold with SQLite's lower(): exact for ASCII, and only for ASCII.
        let catalogue = try makeCatalogue(on: .sqlite)
        defer { try? catalogue.close() }
        var generator = SystemRandomNumberGenerator()
        let ascii = (1 ..< 128).map { String(UnicodeScalar(UInt8($0))) }
        let texts = ascii + [ascii.joined()] + (0 ..< 2000).map { _ in
            (0 ..< Int.random(in: 1 ... 30, using: &generator)).map { _ in ascii.randomElement(using: &generator)! }.joined()
        }
        for text in texts {
            let lowered = try catalogue.read { db in try db.scalar(String.self, "SELECT lower(?)", [text.sqlValue]) }
            XCTAssertEqual(lowered, Catalogue.fold(text), "\(text.unicodeScalars.map(\.value))")
        }
        for text in ["Épicerie", "Straße", "Crème", "ΟΔΥΣΣΕΥΣ"] {
            XCTAssertNotEqual(try catalogue.read { db in try db.scalar(String.self, "SELECT lower(?)", [text.sqlValue]) },
                              Catalogue.fold(text), "\(text): folded by ingest after the trigger")
        }
    }

    func testSQLite3CLI_writesCapturesAndProducts_andIngestFindsThemFolded() throws {
        let path = try makeTemporaryFolder() + "/catalog.sqlite"
        var catalogue = try Catalogue(path: path, logger: testLogger)
        try catalogue.commit(makeSet(captureId: "a", setName: "aisle-4", firstSeed: 1, capturedUTC: 100))
        try catalogue.commit(makeSet(captureId: "b", setName: "Épicerie", firstSeed: 10, capturedUTC: 200))
        try catalogue.commit(makeSet(captureId: "c", setName: "aisle-6", firstSeed: 20, capturedUTC: 300))
        try catalogue.close()

        // An administrator's fixes with SQLite's own CLI, which has no ingest_fold: set names, a
        // delete (its photos go by the foreign key's cascade, which the CLI leaves off unless asked),
        // a product added and renamed.
        let cli = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/sqlite3"), [path, """
            PRAGMA foreign_keys = ON;
            UPDATE capture SET set_name = 'Back Room' WHERE id = 'a';
            UPDATE capture SET set_name = 'Crèmerie du Coin' WHERE id = 'b';
            DELETE FROM capture WHERE id = 'c';
            INSERT INTO product (gtin14, code, name, brands, source) VALUES ('04006381333931', '4006381333931', 'Marker', 'ACME', 'manual');
            UPDATE product SET name = 'Highlighter Pen' WHERE gtin14 = '04006381333931';
            """], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertEqual(cli.stderr, "")
        let asCLILeftIt = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/sqlite3"), [path, """
            SELECT capture_id, unfolded FROM capture_text ORDER BY capture_id;
            INSERT INTO capture_text_index (capture_text_index) VALUES ('integrity-check');
            PRAGMA integrity_check;
            """], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        XCTAssertEqual(asCLILeftIt.stdout, "a|0\nb|1\nok\n", "ASCII exact at once; the accented row waits for ingest")

        catalogue = try Catalogue(path: path, logger: testLogger)
        defer { try? catalogue.close() }
        XCTAssertEqual(try stale(catalogue), 0, "folded when ingest opened it")
        XCTAssertEqual(try found("back room", catalogue), ["a"])
        XCTAssertEqual(try found("cremerie", catalogue), ["b"])
        XCTAssertEqual(try found("highlighter pen", catalogue), ["b", "a"], "both captures have the product's code")
        XCTAssertEqual(try found("marker", catalogue), [])
        XCTAssertEqual(try found("aisle", catalogue), [])
        XCTAssertEqual(try catalogue.captures().map(\.id), ["b", "a"])
        XCTAssertEqual(try catalogue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM photo WHERE capture_id = 'c'") }, 0)
    }
}
