import Catalog
import CSV
import Foundation
import XCTest
import SystemPackage

final class CatalogueExporterTests: CatalogueTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: try makeTemporaryFolder())
    }

    /// Exports to a file and parses it back: header row and one dictionary per data row.
    private func exportAndParse(_ catalogue: Catalogue, since: Double? = nil, rawCells: Bool = false)
        throws -> (header: [String], rows: [[String: String]]) {
        let path = folder.appendingPathComponent("export.csv").path
        let written = try CatalogueExporter(catalogue: catalogue, rawCells: rawCells).writeCSV(toPath: FilePath(path), since: since)
        let reader = try CSVReader(string: try String(contentsOfFile: path, encoding: .utf8), hasHeaderRow: true)
        let header = try XCTUnwrap(reader.headerRow)
        var rows: [[String: String]] = []
        while let row = reader.next() {
            rows.append(Dictionary(uniqueKeysWithValues: zip(header, row)))
        }
        XCTAssertNil(reader.error)
        XCTAssertEqual(rows.count, written)
        return (header, rows)
    }

    func testWriteCSV_awkwardText_roundTripsThroughCSVReader() {
        onEveryBackend { catalogue in
            let setName = "Shelf 3, \"front\"\nrow 2"
            var capture = makeCapture(id: "c1", setName: setName, photoCount: 2, quality: 0.8125)
            capture.capturedAt = "2023-11-14T23:13:20+01:00"
            let photos = [
                makePhoto(id: "p0", captureId: "c1", position: 0, seed: 1, originalName: "tin \"A\", front.jpg"),
                makePhoto(id: "p1", captureId: "c1", position: 1, seed: 2, originalName: "back,side.jpg"),
            ]
            try catalogue.commit(CommittedSet(captures: [capture], photos: photos, hits: []))

            let rows = try exportAndParse(catalogue).rows
            XCTAssertEqual(rows, [[
                "capture_id": "c1", "set_name": setName, "barcode": "4006381333931", "symbology": "EAN-13",
                "gtin13": "4006381333931", "captured_at": "2023-11-14T23:13:20+01:00", "time_source": "exif",
                "photo_count": "2", "photos": "tin \"A\", front.jpg;back,side.jpg", "rating": "Good",
                "quality": "0.812", "thumbnail": "thumbs/p0.jpg", "originals": "originals/p0.jpg;originals/p1.jpg",
                "thumbnails": "thumbs/p0.jpg;thumbs/p1.jpg", "agent_id": "", "agent_name": "", "request_id": "", "note": "",
                "product_name": "Product (2023-11-14 23:13)", "brands": "", "quantity": "", "energy_kcal_100g": "",
                "nutriscore_grade": "", "nutrition_source": "", "addon": "", "name_from_package": "",
            ]])
        }
    }

    func testWriteCSV_cellsASpreadsheetWouldRunAsFormulas_areNeutralised_unlessRawCells() {
        onEveryBackend { catalogue in
            let names = ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-2+3", "@SUM(A1)", "\tcell", "plain = text"]
            let captures = names.enumerated().map { index, name in makeCapture(id: "c\(index)", setName: name, photoCount: 1) }
            let photos = captures.enumerated().map { index, capture in
                makePhoto(id: "p\(index)", captureId: capture.id, position: 0, seed: index + 1)
            }
            try catalogue.commit(CommittedSet(captures: captures, photos: photos, hits: []))
            let shown = try exportAndParse(catalogue).rows.map { $0["set_name"] ?? "" }
            XCTAssertEqual(Set(shown), Set(names.map { $0 == "plain = text" ? $0 : "'" + $0 }))
            XCTAssertEqual(Set(try exportAndParse(catalogue, rawCells: true).rows.map { $0["set_name"] ?? "" }), Set(names))
        }
    }

    func testWriteCSV_header_isExactlyTheDocumentedColumns() {
        onEveryBackend { catalogue in
            let header = try exportAndParse(catalogue).header
            XCTAssertEqual(header, [
                "capture_id", "set_name", "barcode", "symbology", "gtin13", "captured_at", "time_source",
                "photo_count", "photos", "rating", "quality", "thumbnail", "originals", "thumbnails",
                "agent_id", "agent_name", "request_id", "note",
                "product_name", "brands", "quantity", "energy_kcal_100g", "nutriscore_grade", "nutrition_source",
                "addon", "name_from_package",
            ])
            let text = try String(contentsOf: folder.appendingPathComponent("export.csv"), encoding: .utf8)
            XCTAssertEqual(text, header.joined(separator: ",") + "\n")
        }
    }

    func testWriteCSV_captureWithProduct_appendsItsNameBrandsAndSource() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
            var product = Product(gtin14: "04006381333931", code: "4006381333931", name: "Textmarker, \"gelb\"",
                                  brands: "Stabilo", quantity: "1 pc", source: .manual)
            product.energyKcal = 30.5
            product.nutriscoreGrade = "b"
            _ = try catalogue.upsertProducts([product], replaceManual: false)

            let row = try XCTUnwrap(exportAndParse(catalogue).rows.first)
            XCTAssertEqual([row["product_name"], row["brands"], row["quantity"], row["energy_kcal_100g"],
                            row["nutriscore_grade"], row["nutrition_source"]],
                           ["Textmarker, \"gelb\"", "Stabilo", "1 pc", "30.5", "b", "manual"])
        }
    }

    func testWriteCSV_captureWithoutBarcode_exportsEmptyFields() {
        onEveryBackend { catalogue in
            try catalogue.commit(CommittedSet(
                captures: [makeCapture(id: "c1", barcode: nil, gtin13: nil)],
                photos: [makePhoto(id: "p0", captureId: "c1", seed: 1)], hits: []))

            let row = try XCTUnwrap(exportAndParse(catalogue).rows.first)
            XCTAssertEqual([row["barcode"], row["symbology"], row["gtin13"]], ["", "", ""])
        }
    }

    func testWriteCSV_severalSets_ordersBySetThenTimeAndListsPhotosByPosition() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "b-late", setName: "b", photoCount: 1, firstSeed: 1,
                                         capturedUTC: 300))
            try catalogue.commit(makeSet(captureId: "a-late", setName: "a", photoCount: 3, firstSeed: 10,
                                         capturedUTC: 200))
            try catalogue.commit(makeSet(captureId: "a-early", setName: "a", photoCount: 2, firstSeed: 20,
                                         capturedUTC: 100))

            let rows = try exportAndParse(catalogue).rows
            XCTAssertEqual(rows.map { $0["capture_id"] }, ["a-early", "a-late", "b-late"])
            for row in rows {
                let names = try XCTUnwrap(row["photos"]).split(separator: ";")
                XCTAssertEqual(row["photo_count"], String(names.count))
                XCTAssertEqual(try XCTUnwrap(row["originals"]).split(separator: ";").count, names.count)
            }
            XCTAssertEqual(rows[1]["photos"], "a-late-p0.jpg;a-late-p1.jpg;a-late-p2.jpg")
            XCTAssertEqual(rows[1]["thumbnail"], "thumbs/a-late-p0.jpg")
        }
    }

    func testWriteCSV_since_skipsOlderCapturesAndTheirPhotos() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "old", firstSeed: 1, capturedUTC: 100))
            try catalogue.commit(makeSet(captureId: "new", firstSeed: 10, capturedUTC: 200))

            let rows = try exportAndParse(catalogue, since: 200).rows
            XCTAssertEqual(rows.map { $0["capture_id"] }, ["new"])
            XCTAssertEqual(rows.first?["photos"], "new-p0.jpg;new-p1.jpg")
        }
    }

    func testWriteCSV_existingExport_isReplacedWithoutLeavingTemporaryFiles() {
        onEveryBackend { catalogue in
            let path = folder.appendingPathComponent("export.csv")
            try Data("stale".utf8).write(to: path)
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))

            XCTAssertEqual(try CatalogueExporter(catalogue: catalogue).writeCSV(toPath: FilePath(path.path)), 1)
            XCTAssertTrue(try String(contentsOf: path, encoding: .utf8).hasPrefix("capture_id,"))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["export.csv"])
        }
    }

    func testWriteCSV_missingFolder_throwsExportFailedNamingThePath() {
        onEveryBackend { catalogue in
            let path = folder.appendingPathComponent("missing/export.csv").path
            XCTAssertThrowsError(try CatalogueExporter(catalogue: catalogue).writeCSV(toPath: FilePath(path))) { error in
                guard case let .exportFailed(reportedPath, reason)? = error as? CatalogError else {
                    return XCTFail("expected exportFailed, got \(error)")
                }
                XCTAssertEqual(reportedPath, path)
                XCTAssertEqual(reason, "its folder \(folder.appendingPathComponent("missing").path) does not exist")
            }
        }
    }

    func testWriteToStream_twoCaptures_returnsRowCountAndWritesThreeLines() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
            try catalogue.commit(makeSet(captureId: "c2", firstSeed: 10))
            let stream = OutputStream.toMemory()

            XCTAssertEqual(try CatalogueExporter(catalogue: catalogue).write(to: stream), 2)
            let data = try XCTUnwrap(stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data)
            XCTAssertEqual(String(decoding: data, as: UTF8.self).split(separator: "\n").count, 3)
        }
    }
}
