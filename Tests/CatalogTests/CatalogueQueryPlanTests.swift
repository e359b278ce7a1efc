@testable import Catalog
import Foundation
import XCTest

/// Every filter combination `ingest list` offers reads through an index that also gives the
/// newest-first order, so a page costs its own rows, not the catalogue's.
final class CatalogueQueryPlanTests: XCTestCase {
    private var catalogue: Catalogue!

    override func setUpWithError() throws {
        catalogue = try Catalogue.inMemory(logger: testLogger)
        try catalogue.commit(makeSet(captureId: "c1", firstSeed: 1))
        let agent = Agent(id: "chef", name: "Practical Chef", firstSeen: "2026-01-01T00:00:00Z", lastSeen: "2026-01-01T00:00:00Z")
        var set = makeSet(captureId: "c2", firstSeed: 10)
        set.agent = agent
        set.captures[0].agentId = "chef"
        try catalogue.commit(set)
    }

    /// SQLite's plan for a page of 50 of `filter`, one line per step.
    private func plan(_ filter: CaptureFilter, before: CaptureCursor?) throws -> [String] {
        try catalogue.read { db in
            let query = try filter.sql(db, before: before)
            var steps: [String] = []
            try db.query("EXPLAIN QUERY PLAN SELECT capture.* \(query.body) LIMIT 50", query.arguments) { steps.append($0[3]) }
            return steps
        }
    }

    /// Every combination of the filters `list` has (barcode and no-barcode exclude each other).
    private var combinations: [(CaptureFilter, CaptureCursor?)] {
        var all: [(CaptureFilter, CaptureCursor?)] = []
        for mask in 0 ..< (1 << 6) {
            for code in [nil, "4006381333931", ""] {
                var filter = CaptureFilter()
                if code == "" { filter.noBarcode = true } else { filter.barcode = code }
                if mask & 1 != 0 { filter.setName = "shelf-1" }
                if mask & 2 != 0 { filter.rating = .good }
                if mask & 4 != 0 { filter.agent = "chef" }
                if mask & 8 != 0 { filter.since = 1_600_000_000 }
                if mask & 16 != 0 { filter.until = 1_900_000_000 }
                all.append((filter, mask & 32 != 0 ? CaptureCursor(capturedUTC: 1_800_000_000, id: "c9") : nil))
            }
        }
        return all
    }

    func testEveryFilterCombination_readsThroughAnIndexInPageOrder() throws {
        for (filter, before) in combinations {
            let steps = try plan(filter, before: before)
            let label = "\(filter) before \(before.map { "\($0)" } ?? "-"): \(steps)"
            let captureSteps = steps.filter { $0.contains(" capture ") || $0.hasSuffix(" capture") }
            XCTAssertFalse(captureSteps.isEmpty, label)
            for step in captureSteps {
                XCTAssertTrue(step.contains("USING INDEX") || step.contains("USING COVERING INDEX"), "no full scan: \(label)")
            }
            // `barcode = ? OR gtin13 = ?` reads two indexes, then sorts the one product's captures.
            if filter.barcode == nil {
                XCTAssertFalse(steps.contains { $0.contains("TEMP B-TREE") }, "the index gives the order: \(label)")
            }
            // An equality filter starts the index, so only matching rows are read.
            let equalities = [(filter.setName, "set_name"), (filter.rating?.rawValue, "rating"), (filter.agent, "agent_id"),
                              (filter.noBarcode ? "" : nil, "barcode")].filter { $0.0 != nil }.map(\.1)
            if filter.barcode == nil, !equalities.isEmpty {
                XCTAssertTrue(equalities.contains { column in captureSteps.contains { $0.contains("(\(column)=") } },
                              "an equality leads the index: \(label)")
            }
        }
    }

    func testSearch_fewMatches_readsCapturesByIdAndFrequentOnes_theTextsIndexInPageOrder() throws {
        // "shelf" has trigrams: the index finds c1 and c2, which are read by id and sorted.
        let few = try plan(CaptureFilter(search: "shelf"), before: nil)
        XCTAssertTrue(few.contains { $0.contains("capture USING INDEX sqlite_autoindex_capture_1 (id=?)") }, "\(few)")
        // "sh" is too short for the index: the text is read newest first from its covering index,
        // which gives the page's order (no sort), and each capture is read by id.
        for before in [nil, CaptureCursor(capturedUTC: 1_800_000_000, id: "c9")] {
            let frequent = try plan(CaptureFilter(search: "sh"), before: before)
            XCTAssertTrue(frequent.first?.contains("search USING COVERING INDEX capture_text_on_captured_utc_capture_id") ?? false,
                          "\(frequent)")
            XCTAssertFalse(frequent.contains { $0.contains("TEMP B-TREE") }, "\(frequent)")
        }
    }

    func testEveryReviewReason_readsThroughAnIndex() throws {
        for reason in ReviewReason.allCases {
            let steps = try catalogue.read { db in
                let (sql, arguments) = Catalogue.reviewQuery(reason, limit: 24, db.dialect)
                var steps: [String] = []
                try db.query("EXPLAIN QUERY PLAN " + sql, arguments) { steps.append($0[3]) }
                return steps
            }
            let scans = steps.filter { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }
            XCTAssertEqual(scans, [], "\(reason): \(steps)")
            if reason == .manyPhotos {
                XCTAssertTrue(steps.contains { $0.contains("capture_on_photo_count_captured_utc_id") },
                              "many photos: the photo-count index, not every capture in time order: \(steps)")
            }
        }
    }
}
