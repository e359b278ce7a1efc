@testable import Catalog
import Foundation
import Vocabulary
import XCTest

final class CatalogueProductTests: CatalogueTestCase {
    private func product(_ name: String, source: ProductSource = .off, modified: Int64? = 100,
                         gtin14: String = "04006381333931") -> Product {
        var product = Product(gtin14: gtin14, code: String(gtin14.dropFirst()), name: name, source: source)
        product.lastModified = modified
        return product
    }

    private func storedName(_ catalogue: Catalogue, _ gtin14: String = "04006381333931") throws -> String? {
        try catalogue.product(gtin14Keys: [gtin14])?.name
    }

    func testUpsert_newerDumpRow_replacesTheOlderOne() {
        onEveryBackend { catalogue in
            XCTAssertEqual(try catalogue.upsertProducts([product("Old")], replaceManual: false), 1)
            XCTAssertEqual(try catalogue.upsertProducts([product("New", modified: 200)], replaceManual: false), 1)
            XCTAssertEqual(try storedName(catalogue), "New")
        }
    }

    func testUpsert_olderDumpRow_keepsTheNewerOne() {
        onEveryBackend { catalogue in
            _ = try catalogue.upsertProducts([product("New", modified: 200)], replaceManual: false)
            XCTAssertEqual(try catalogue.upsertProducts([product("Old", modified: 100)], replaceManual: false), 0)
            XCTAssertEqual(try storedName(catalogue), "New")
        }
    }

    func testUpsert_manualRow_isKeptUnlessReplaceManual() {
        onEveryBackend { catalogue in
            _ = try catalogue.upsertProducts([product("Mine", source: .manual, modified: nil)], replaceManual: false)
            XCTAssertEqual(try catalogue.upsertProducts([product("Dump", modified: 300)], replaceManual: false), 0)
            XCTAssertEqual(try storedName(catalogue), "Mine")
            XCTAssertEqual(try catalogue.upsertProducts([product("Dump", modified: 300)], replaceManual: true), 1)
            XCTAssertEqual(try catalogue.product(gtin14Keys: ["04006381333931"])?.source, .off)
        }
    }

    func testUpsert_copyUnderASecondKey_neverReplacesAProductsOwnRow() {
        onEveryBackend { catalogue in
            _ = try catalogue.upsertProducts([product("Own", gtin14: "00012345000065")], replaceManual: false)
            let other = product("Eight", gtin14: "00000001234565")
            XCTAssertEqual(try catalogue.upsertProducts([other, other.alias(gtin14: "00012345000065")], replaceManual: false), 1)
            XCTAssertEqual(try storedName(catalogue, "00012345000065"), "Own")
            XCTAssertEqual(try catalogue.product(gtin14Keys: ["00000001234565", "00012345000065"])?.name, "Eight")
        }
    }

    func testProductsForGTIN13s_findsByTheCapturesKey() {
        onEveryBackend { catalogue in
            _ = try catalogue.upsertProducts([product("Marker")], replaceManual: false)
            let found = try catalogue.products(forGTIN13s: ["4006381333931", "5901234123457"])
            XCTAssertEqual(found.mapValues(\.name), ["4006381333931": "Marker"])
        }
    }

    func testStats_countsProductsBySourceAndCapturesWithAndWithout() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
            try catalogue.commit(CommittedSet(captures: [makeCapture(id: "c2", barcode: nil, gtin13: nil)],
                                              photos: [makePhoto(id: "p9", captureId: "c2", seed: 9)], hits: []))
            let eight = product("Eight", modified: 500, gtin14: "00000001234565")
            _ = try catalogue.upsertProducts([product("Marker"), eight, eight.alias(gtin14: "00012345000065"),
                                              product("Mine", source: .manual, gtin14: "05901234123457")], replaceManual: false)
            XCTAssertEqual(try catalogue.productStats(), ProductStats(fromDumps: 2, manual: 1, newestModified: 500,
                                                                      capturesWithProduct: 1, capturesWithoutProduct: 1))
        }
    }

    func testSearch_matchesProductNameBrandSetAndBarcode_ignoringCaseAndAccents() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", setName: "aisle-4", firstSeed: 1))
            var other = makeSet(captureId: "c2", setName: "Épicerie", firstSeed: 10, capturedUTC: 1_700_000_100)
            other.captures[0].barcode = "5901234123457"
            other.captures[0].gtin13 = "5901234123457"
            try catalogue.commit(other)
            var marker = product("Crème brûlée")
            marker.brands = "Señor Postre"
            _ = try catalogue.upsertProducts([marker], replaceManual: false)
            let ids = { (text: String) in try catalogue.captures(matching: CaptureFilter(search: text)).map(\.id) }
            XCTAssertEqual(try ids("CREME BRU"), ["c1"])
            XCTAssertEqual(try ids("senor"), ["c1"])
            XCTAssertEqual(try ids("epicerie"), ["c2"])
            XCTAssertEqual(try ids("012341"), ["c2"])
            XCTAssertEqual(try ids("nothing like it"), [])
        }
    }
}
