@testable import Catalog
import CSV
import Foundation
import GRDB
import XCTest
import SystemPackage

/// Schema v2: agents, the agent context of captures, and what reads them (filters, export, delete).
final class CatalogueAgentTests: CatalogueTestCase {
    private func makeAgentSet(captureId: String, seed: Int, agentId: String, name: String?, seen: String,
                              note: String? = nil) -> CommittedSet {
        var set = makeSet(captureId: captureId, photoCount: 1, firstSeed: seed)
        set.captures[0].agentId = agentId
        set.captures[0].agentName = name
        set.captures[0].requestId = "req-\(captureId)"
        set.captures[0].note = note
        set.captures[0].contextPath = "originals/shelf-1/capture.json"
        set.agent = Agent(id: agentId, name: name ?? agentId, firstSeen: seen, lastSeen: seen)
        return set
    }

    /// SQLite only: PostgreSQL catalogues start with every migration of this version.
    func testOpen_databaseMadeByV1_migratesToV2AndKeepsItsRows() throws {
        let path = try URL(fileURLWithPath: makeTemporaryFolder()).appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try Catalogue.migrator.migrate(queue, upTo: "v1")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO capture (id, set_name, barcode, captured_at, captured_utc, time_source, photo_count,
                                         quality, rating, created_at)
                    VALUES ('old', 'shelf-1', '4006381333931', '2023-11-14T22:13:20Z', 1700000000, 'exif', 1,
                            0.8, 'Good', '2024-01-01T00:00:00Z')
                    """)
            }
            XCTAssertEqual(try queue.read { try Catalogue.migrator.appliedIdentifiers($0) }, ["v1"])
        }

        let catalogue = try Catalogue(path: path, logger: testLogger)
        let applied = try catalogue.store.appliedMigrations()
        XCTAssertEqual(applied, Set(Catalogue.schemaVersions))
        let old = try XCTUnwrap(try catalogue.captures().first { $0.id == "old" })
        XCTAssertEqual(old.barcode, "4006381333931")
        XCTAssertNil(old.agentId)
        XCTAssertNil(old.contextPath)
        try catalogue.commit(makeAgentSet(captureId: "new", seed: 1, agentId: "chef", name: "Chef", seen: "2026-01-01T00:00:00Z"))
        XCTAssertEqual(try catalogue.captures().map(\.id).sorted(), ["new", "old"])
    }

    func testCommit_agentSeenAgain_keepsFirstSeenAndTakesLatestName() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeAgentSet(captureId: "c1", seed: 1, agentId: "chef", name: "Chef", seen: "2026-01-01T00:00:00Z"))
            try catalogue.commit(makeAgentSet(captureId: "c2", seed: 2, agentId: "chef", name: "Practical Chef",
                                              seen: "2026-02-01T00:00:00Z"))
            try catalogue.commit(makeAgentSet(captureId: "c3", seed: 3, agentId: "chef", name: nil, seen: "2026-03-01T00:00:00Z"))

            XCTAssertEqual(try catalogue.agents(), ["chef": Agent(id: "chef", name: "Practical Chef",
                                                                  firstSeen: "2026-01-01T00:00:00Z", lastSeen: "2026-03-01T00:00:00Z")])
            let c1 = try XCTUnwrap(try catalogue.captures().first { $0.id == "c1" })
            XCTAssertEqual(c1.agentName, "Chef", "a capture keeps the name it was taken under")
            XCTAssertEqual(c1.agentName(latestIn: try catalogue.agents()), "Practical Chef")
        }
    }

    func testCapturesMatching_agent_matchesIdOrAnyNameIgnoringCase() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeAgentSet(captureId: "c1", seed: 1, agentId: "chef", name: "Cuisine Émile", seen: "2026-01-01T00:00:00Z"))
            try catalogue.commit(makeAgentSet(captureId: "c2", seed: 2, agentId: "chef", name: "Practical Chef", seen: "2026-02-01T00:00:00Z"))
            try catalogue.commit(makeAgentSet(captureId: "c3", seed: 3, agentId: "baker", name: "Baker", seen: "2026-02-01T00:00:00Z"))
            try catalogue.commit(makeSet(captureId: "c4", photoCount: 1, firstSeed: 4))

            func ids(_ agent: String) throws -> [String] {
                try catalogue.captures(matching: CaptureFilter(agent: agent)).map(\.id).sorted()
            }
            XCTAssertEqual(try ids("chef"), ["c1", "c2"])
            XCTAssertEqual(try ids("PRACTICAL"), ["c1", "c2"])
            XCTAssertEqual(try ids("émile"), ["c1", "c2"], "the name at capture time counts too, in any case")
            XCTAssertEqual(try ids("bak"), ["c3"])
            XCTAssertEqual(try ids("nobody"), [])
        }
    }

    func testDeleteEdit_removesItsRowsAndHoldsTheSidecarOnlyWithTheLastCapture() {
        onEveryBackend { catalogue in
            var set = makeAgentSet(captureId: "c1", seed: 1, agentId: "chef", name: "Chef", seen: "2026-01-01T00:00:00Z")
            let second = makeAgentSet(captureId: "c2", seed: 5, agentId: "chef", name: "Chef", seen: "2026-01-01T00:00:00Z")
            set.captures += second.captures
            set.photos += second.photos
            set.hits += second.hits
            try catalogue.commit(set)
            func delete(_ id: String) throws {
                _ = try catalogue.applyEdit(to: [id], origin: "test", madeAt: "t") { _ in EditPlan(kind: .delete, summary: "", after: []) }
            }

            try delete("c1")
            XCTAssertEqual(try catalogue.heldFilePaths(), ["originals/c1-p0.jpg", "thumbs/c1-p0.jpg"], "c2 still uses the sidecar")
            let counts = try catalogue.counts()
            XCTAssertEqual([counts.captures, counts.photos, counts.hits], [1, 1, 1])
            try delete("c2")
            XCTAssertTrue(try catalogue.heldFilePaths().contains("originals/shelf-1/capture.json"))
            XCTAssertThrowsError(try delete("c2")) { XCTAssertEqual($0 as? EditError, .unknownCapture("c2")) }
            XCTAssertEqual(try catalogue.agents().keys.sorted(), ["chef"], "the agent stays")
            _ = try catalogue.undoEdit(id: nil, origin: "test", madeAt: "t")
            XCTAssertEqual(try catalogue.heldFilePaths(), ["originals/c1-p0.jpg", "thumbs/c1-p0.jpg"], "c2 back with its sidecar")
        }
    }

    func testRecordThumbnail_updatesSizeAndRefusesAnUnknownPhoto() {
        onEveryBackend { catalogue in
            try catalogue.commit(makeSet(captureId: "c1", photoCount: 1, firstSeed: 1))
            try catalogue.recordThumbnail(photoId: "c1-p0", width: 480, height: 360)
            let photo = try XCTUnwrap(try catalogue.photos(ofCapture: "c1").first)
            XCTAssertEqual([photo.thumbWidth, photo.thumbHeight], [480, 360])
            assertThrows(.unknownPhoto(path: catalogue.path, photoId: "gone")) {
                try catalogue.recordThumbnail(photoId: "gone", width: 480, height: 360)
            }
        }
    }

    func testWriteCSV_agentColumns_carryLatestNameAndSurviveAwkwardNotes() {
        onEveryBackend { catalogue in
            let note = "aisle 4, \"top\" shelf\nsecond line"
            try catalogue.commit(makeAgentSet(captureId: "c1", seed: 1, agentId: "chef", name: "Chef", seen: "2026-01-01T00:00:00Z",
                                              note: note))
            try catalogue.commit(makeAgentSet(captureId: "c2", seed: 2, agentId: "chef", name: "Practical Chef",
                                              seen: "2026-02-01T00:00:00Z"))
            let path = try URL(fileURLWithPath: makeTemporaryFolder()).appendingPathComponent("out.csv").path
            try CatalogueExporter(catalogue: catalogue).writeCSV(toPath: FilePath(path))

            let reader = try CSVReader(string: try String(contentsOfFile: path, encoding: .utf8), hasHeaderRow: true)
            let header = try XCTUnwrap(reader.headerRow)
            XCTAssertEqual(Array(header.drop { $0 != "agent_id" }.prefix(4)), ["agent_id", "agent_name", "request_id", "note"])
            var rows: [String: [String: String]] = [:]
            while let row = reader.next() {
                let fields = Dictionary(uniqueKeysWithValues: zip(header, row))
                rows[fields["capture_id"]!] = fields
            }
            XCTAssertEqual(rows["c1"]?["agent_id"], "chef")
            XCTAssertEqual(rows["c1"]?["agent_name"], "Practical Chef")
            XCTAssertEqual(rows["c1"]?["request_id"], "req-c1")
            XCTAssertEqual(rows["c1"]?["note"], note)
            XCTAssertEqual(rows["c2"]?["note"], "")
        }
    }
}
