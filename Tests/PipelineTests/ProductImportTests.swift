import Catalog
import Foundation
import Logging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest
import SystemPackage

final class ProductImportTests: XCTestCase {
    private var catalogue: Catalogue!
    private var folder: String!
    private let logger = Logger(label: "ProductImportTests")

    override func setUpWithError() throws {
        catalogue = try Catalogue.inMemory(logger: logger)
        folder = try makeTemporaryFolder()
    }

    /// Writes `bytes` as `name` in the test's folder; returns its path.
    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func write(_ text: String, _ name: String = "dump") throws -> String {
        try write(Array(text.utf8), name)
    }

    private func gzip(_ path: String) throws -> String {
        try IngestHarness.shell("gzip -kf '\(path)'", in: URL(fileURLWithPath: folder))
        return path + ".gz"
    }

    private func run(_ path: String, _ options: ProductImportOptions = .init()) throws -> ProductImportReport {
        try ProductImport(catalogue: catalogue, options: options, logger: logger).run(path: FilePath(path))
    }

    private func product(_ code: String) throws -> Product? {
        try catalogue.product(gtin14Keys: ProductCode.keys(for: code) ?? [])
    }

    private func productCount() throws -> Int {
        let stats = try catalogue.productStats()
        return stats.fromDumps + stats.manual
    }

    /// A header in an order of its own, with a column ingest does not know.
    private let header = "brands\tunknown_column\tenergy-kcal_100g\tcode\tproduct_name\tlast_modified_t\tnova_group\n"

    func testCSV_columnsFoundByName_emptyValuesAbsent_unknownColumnsIgnored() throws {
        let report = try run(try write(header + "Ferrero\tx\t539\t3017620422003\tNutella\t1700000000\t4\n"
            + "\t\t\t0955812235532\tPeanut butter\t\t\n"))
        XCTAssertEqual([report.rowsRead, report.stored, report.skippedTotal], [2, 2, 0])
        let nutella = try XCTUnwrap(try product("3017620422003"))
        XCTAssertEqual([nutella.name, nutella.brands], ["Nutella", "Ferrero"])
        XCTAssertEqual(nutella.energyKcal, 539)
        XCTAssertEqual(nutella.novaGroup, 4)
        XCTAssertEqual(nutella.lastModified, 1_700_000_000)
        let butter = try XCTUnwrap(try product("955812235532"))
        XCTAssertNil(butter.brands)
        XCTAssertNil(butter.energyKcal)
        XCTAssertEqual(report.format, "CSV")
    }

    func testCSV_quotedFields_holdTabsLineEndsAndQuotes() throws {
        let text = header + "\"Brand\tA\"\tx\t1e3\t3017620422003\t\"Line one\nline \"\"two\"\"\"\t\t\n"
            + "\"Bio\" milk\tx\t246.0\t5902255046404\tMilk\t\t\n"
        let report = try run(try write(text))
        XCTAssertEqual([report.rowsRead, report.stored, report.skippedTotal], [2, 2, 0])
        XCTAssertEqual(try product("3017620422003")?.brands, "Brand\tA")
        XCTAssertEqual(try product("3017620422003")?.name, "Line one\nline \"two\"")
        XCTAssertEqual(try product("3017620422003")?.energyKcal, 1000)
        XCTAssertEqual(try product("5902255046404")?.brands, "\"Bio\" milk", "a quote inside unquoted text is text")
    }

    func testCSV_byteOrderMarkAndCRLF_areRead() throws {
        let text = "\u{FEFF}" + header.replacingOccurrences(of: "\n", with: "\r\n")
            + "Ferrero\tx\t539\t3017620422003\tNutella\t\t\r\n"
        let report = try run(try write(text))
        XCTAssertEqual(report.stored, 1)
        XCTAssertEqual(try product("3017620422003")?.name, "Nutella")
        XCTAssertEqual(try product("3017620422003")?.brands, "Ferrero")
    }

    func testCSV_malformedLines_areCountedAndSkipped() throws {
        var bytes = Array((header + "A\tx\t1\t3017620422003\tGood\t\t\n"
            + "A\tx\t1\t5902255046404\n"                       // too few fields
            + "A\tx\tlots\t4006381333931\tNumber\t\t\n"        // not a number
            + "A\tx\t1\tnot-a-code\tQR\t\t\n"                  // not a GTIN
            + "A\tx\t1\t0955812235532\t").utf8)
        bytes += [0xC3, 0x28] + Array("\t\t\n".utf8)          // bad UTF-8 in the name
        bytes += Array("A\tx\t1\t25031614\tTruncat".utf8)       // last line cut short
        let report = try run(try write(bytes, "dump.csv"))
        XCTAssertEqual(report.rowsRead, 6)
        XCTAssertEqual(report.stored, 1)
        XCTAssertEqual(report.skipped, ["wrong field count": 2, "not a number": 1, "code not a GTIN": 1, "not UTF-8": 1])
        XCTAssertNil(report.failure)
    }

    func testCSV_strict_stopsAtTheFirstMalformedLine() throws {
        let path = try write(header + "A\tx\t1\t3017620422003\tGood\t\t\nA\tx\n")
        let report = try run(path, ProductImportOptions(strict: true))
        XCTAssertEqual(report.failure, .malformedLine(path: path, line: 3, reason: "wrong field count: 2 fields where the header has 7"))
    }

    func testGzip_isRecognisedByItsBytes_andACutShortStreamIsReported() throws {
        let rows = (0 ..< 3000).map { "Brand\tx\t\($0)\t\(4_000_000_000_000 + $0)\tProduct \($0)\t\t\n" }
        let plain = try write(header + rows.joined(), "products.csv")
        let whole = try gzip(plain)
        let named = folder + "/not-named-gz"
        try FileManager.default.copyItem(atPath: whole, toPath: named)
        let report = try run(named)
        XCTAssertEqual([report.rowsRead, report.stored], [3000, 3000])
        XCTAssertEqual(report.format, "CSV, gzip")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = try write(Array(bytes.prefix(bytes.count / 2)), "cut.csv.gz")
        let cutReport = try run(cut)
        guard case .damagedGzip(path: cut, reason: _)? = cutReport.failure else {
            return XCTFail("expected damagedGzip, got \(String(describing: cutReport.failure))")
        }
        XCTAssertLessThan(cutReport.rowsRead, 3000)
    }

    func testJSONL_readsNutrimentsNumbersAsStringsAndLanguageNames() throws {
        let lines = [
            #"{"code":"3017620422003","product_name":"Nutella","brands":"Ferrero","quantity":"400 g","nutriscore_grade":"e","nova_group":4,"categories":"Spreads","last_modified_t":1700000000,"nutriments":{"energy-kcal_100g":539,"fat_100g":"30.9","salt_100g":""}}"#,
            #"{"code":955812235532,"product_name_fr":"Beurre de cacahuète","nova_group":"3","nutriments":{}}"#,
            #"{"code":"5902255046404","nutriments":{"fat_100g":"lots"}}"#,
            #"not json at all"#,
        ]
        let report = try run(try write(lines.joined(separator: "\n") + "\n", "products.jsonl"))
        XCTAssertEqual(report.format, "JSONL")
        XCTAssertEqual([report.rowsRead, report.stored], [4, 2])
        XCTAssertEqual(report.skipped, ["not a number": 1, "not a JSON object": 1])
        let nutella = try XCTUnwrap(try product("3017620422003"))
        XCTAssertEqual([nutella.quantity, nutella.nutriscoreGrade, nutella.categories], ["400 g", "e", "Spreads"])
        XCTAssertEqual(nutella.fat, 30.9)
        XCTAssertNil(nutella.salt)
        XCTAssertEqual(try product("0955812235532")?.name, "Beurre de cacahuète")
        XCTAssertEqual(try product("0955812235532")?.novaGroup, 3)
    }

    func testReimport_updatesChangedProductsAndKeepsTheRest() throws {
        _ = try run(try write(header + "A\tx\t1\t3017620422003\tOld name\t100\t\nB\tx\t2\t5902255046404\tKept\t100\t\n"))
        let report = try run(try write(header + "A\tx\t1\t3017620422003\tNew name\t200\t\n", "newer"))
        XCTAssertEqual(report.stored, 1)
        XCTAssertEqual(try product("3017620422003")?.name, "New name")
        XCTAssertEqual(try product("5902255046404")?.name, "Kept")
    }

    func testOnlyCatalogued_storesOnlyTheCapturesProducts() throws {
        var capture = Capture(id: "c1", runId: nil, setName: "s", barcode: "25031614", symbology: .ean8,
                              gtin13: "0000025031614", capturedAt: "2026-11-21T14:03:00Z", capturedUTC: 1,
                              timeSource: .exif, photoCount: 1, quality: 0.5, rating: .fair, createdAt: "t")
        capture.note = nil
        try catalogue.commit(CommittedSet(captures: [capture], photos: [], hits: []))
        let report = try run(try write(header + "A\tx\t1\t25031614\tOats\t\t\nB\tx\t2\t5902255046404\tOther\t\t\n"),
                             ProductImportOptions(onlyCatalogued: true))
        XCTAssertEqual([report.stored, report.notCatalogued], [1, 1])
        XCTAssertEqual(try catalogue.products(forGTIN13s: ["0000025031614"])["0000025031614"]?.name, "Oats")
    }

    func testNotADump_emptyGarbageOrOtherCSV_throwsAndChangesNothing() throws {
        _ = try run(try write(header + "A\tx\t1\t3017620422003\tKept\t\t\n"))
        var garbage = [UInt8](repeating: 0, count: 5000)
        for index in garbage.indices { garbage[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ 13) }
        let inputs = [try write([], "empty.csv"), try write(garbage, "garbage.bin"),
                      try write("name,price\nsoap,2\n", "other.csv"), try gzip(try write(garbage, "garbage"))]
        for path in inputs {
            XCTAssertThrowsError(try run(path), path) { error in
                guard case .notADump(path: path, reason: _)? = error as? ProductImportError else {
                    return XCTFail("\(path): expected notADump, got \(error)")
                }
                XCTAssertTrue("\(error)".hasPrefix(path + ": not an Open Food Facts dump"), "\(error)")
            }
        }
        XCTAssertEqual(try productCount(), 1)
        XCTAssertEqual(try product("3017620422003")?.name, "Kept")
    }
}
