import Catalog
import Foundation
import TestSupport
import XCTest

/// `ingest products …` and the product data `list`, `show` and `export` print, on the samples.
final class ProductsTests: XCTestCase {
    /// A dump in Open Food Facts' CSV layout for three sample codes, each written in another form
    /// than the capture holds: UPC-A without its leading 0, EAN-13 with a stray one, EAN-8 as is.
    private let dump = """
        code\turl\tcreator\tcreated_t\tcreated_datetime\tlast_modified_t\tproduct_name\tquantity\tbrands\tcategories_en\tnutriscore_grade\tnova_group\tenergy-kcal_100g\tfat_100g
        955812235532\thttps://x\tbot\t1\t\t1700000000\tPeanut Butter Crunchy\t340 g\tAcme\tSpreads\td\t4\t588\t49.9
        05902255046404\thttps://x\tbot\t1\t\t1700000100\tCrème fraîche\t200 g\tŁaciate\tDairies\tc\t3\t292\t30
        25031614\thttps://x\tbot\t1\t\t1700000200\tOat bars\t8 x 25 g\tBarly\tSnacks\t\t\t402\t14

        """

    private func writeDump(_ text: String, in work: SampleLibrary, name: String = "products.csv") throws -> String {
        let path = work.folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return name
    }

    func testImport_capturesBeforeAndAfter_showTheirProductEverywhere() throws {
        let work = try SampleLibrary(for: self)
        try IngestHarness.shell("mkdir later && mv inbox/single-product later/", in: work.folder)
        try work.run()
        let imported = try work.ingest(["products", "import", try writeDump(dump, in: work)])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.hasPrefix("rows 3, products stored 3, kept 0, not catalogued 0, skipped 0"), imported.stdout)
        try IngestHarness.shell("mv later/single-product inbox/", in: work.folder)
        XCTAssertEqual(try work.ingest(["run", "--quiet"]).status, 0, "the set ingested after the import")

        let list = try work.ingest(["list"])
        XCTAssertTrue(list.stdout.split(separator: "\n")[0].contains(" PRODUCT "), list.stdout)
        for name in ["Peanut Butter Crunchy — Acme", "Crème fraîche — Łaciate", "Oat bars — Barly"] {
            XCTAssertTrue(list.stdout.contains(name), "\(name) in\n\(list.stdout)")
        }
        let all = try work.ingest(["list", "--all", "--json"])
        XCTAssertEqual(all.status, 0, "--all streams captures and their products from one cursor: \(all.stderr)")
        XCTAssertTrue(all.stdout.contains("\"name\" : \"Oat bars\""), all.stdout)
        let capture = try XCTUnwrap(try work.catalogue().captures(matching: CaptureFilter(setName: "no-barcode")).first)
        XCTAssertTrue(list.stdout.contains(capture.fallbackProductName), list.stdout)

        let searched = try XCTUnwrap(try work.json(["list", "--json", "--search", "CREME FRAICHE"]) as? [[String: Any]])
        XCTAssertEqual(searched.map { $0["setName"] as? String }, ["single-product"])
        let product = try XCTUnwrap(searched.first?["product"] as? [String: Any])
        XCTAssertEqual(product["brands"] as? String, "Łaciate")
        XCTAssertEqual((product["nutrition"] as? [String: Any])?["energyKcal"] as? Double, 292)

        let rows = try work.exportedRows()
        let bySet = Dictionary(grouping: rows) { $0["set_name"] ?? "" }
        XCTAssertEqual(bySet["single-product"]?.first?["product_name"], "Crème fraîche")
        XCTAssertEqual(bySet["bad-files"]?.first?["nutrition_source"], "off")
        XCTAssertEqual(bySet["no-barcode"]?.first?["product_name"], capture.fallbackProductName)

        let eight = try XCTUnwrap(try work.catalogue().captures(matching: CaptureFilter(barcode: "25031614")).first)
        let show = try work.ingest(["show", eight.id])
        XCTAssertTrue(show.stdout.contains("product   Oat bars — Barly, 8 x 25 g\n          per 100 g: energy 402 kcal, fat 14 g"),
                      show.stdout)
        let stats = try work.ingest(["products", "stats"])
        XCTAssertTrue(stats.stdout.contains("captures   3 with product data, 4 without"), stats.stdout)
    }

    func testProductsShowAndSet_anyFormOfTheCode_manualRowsSurviveImports() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        _ = try work.ingest(["products", "import", try writeDump(dump, in: work)])
        for form in ["955812235532", "0955812235532", "00955812235532"] {
            XCTAssertTrue(try work.ingest(["products", "show", form]).stdout.hasPrefix("product   Peanut Butter Crunchy — Acme, 340 g"), form)
        }
        XCTAssertEqual(try work.ingest(["products", "show", "https://example.org"]).status, 64)
        XCTAssertEqual(try work.ingest(["products", "show", "4006381333931"]).status, 1)

        let set = try work.ingest(["products", "set", "0955812235532", "--name", "Peanut butter (fixed)", "--kcal", "590"])
        XCTAssertEqual(set.status, 0, set.stderr)
        _ = try work.ingest(["products", "import", "products.csv"])
        let kept = try XCTUnwrap(try work.json(["products", "show", "955812235532", "--json"]) as? [String: Any])
        XCTAssertEqual([kept["name"] as? String, kept["source"] as? String, kept["brands"] as? String],
                       ["Peanut butter (fixed)", "manual", "Acme"])
        _ = try work.ingest(["products", "import", "products.csv", "--replace-manual"])
        let replaced = try XCTUnwrap(try work.json(["products", "show", "955812235532", "--json"]) as? [String: Any])
        XCTAssertEqual(replaced["source"] as? String, "off")
    }

    func testImport_notADump_exits1NamingTheFileAndChangesNothing() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        _ = try work.ingest(["products", "import", try writeDump(dump, in: work)])
        let before = try work.ingest(["products", "stats"]).stdout
        for name in [try writeDump("", in: work, name: "empty.csv"),
                     try writeDump("capture_id,set_name\n1,2\n", in: work, name: "export.csv")] {
            let outcome = try work.ingest(["products", "import", name])
            XCTAssertEqual(outcome.status, 1)
            XCTAssertTrue(outcome.stderr.contains(work.folder.appendingPathComponent(name).path + ": not an Open Food Facts dump"),
                          outcome.stderr)
        }
        XCTAssertEqual(try work.ingest(["products", "import", "missing.csv"]).status, 1)
        XCTAssertEqual(try work.ingest(["products", "stats"]).stdout, before)
    }
}
