@testable import Catalog
import Foundation
import GRDB
import XCTest

final class CatalogueMigrationTests: XCTestCase {
    private func makeDatabasePath() throws -> String {
        try URL(fileURLWithPath: makeTemporaryFolder()).appendingPathComponent("catalogue/catalogue.sqlite").path
    }

    /// Every CREATE statement as SQLite keeps it, one block per table and index.
    private func schema(_ db: Database) throws -> String {
        try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY type, name
            """).map { row -> String in "-- \(row["type"] as String) \(row["name"] as String)\n\(row["sql"] as String);\n\n" }
            .joined()
    }

    private func reference(_ name: String) throws -> String {
        try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/\(name).sql"), encoding: .utf8)
    }

    /// A database queue with `ingest_fold`, as every connection of ingest has it.
    private func queueWithFold(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SQLiteStore.foldFunction) }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// A catalogue file migrated up to `version` and given the rows `sql` inserts, as an ingest of
    /// that version left it.
    private func databaseMade(upTo version: String, rows sql: String) throws -> String {
        let path = try makeDatabasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let queue = try queueWithFold(path)
        try Catalogue.migrator.migrate(queue, upTo: version)
        try queue.write { db in try db.execute(sql: sql) }
        return path
    }

    func testMigrateUpToV2_makesExactlyTheSchemaTheReleaseMade() throws {
        // schema-v2-agents.sql was made by the release that shipped v2-agents: shipped migrations
        // may be reorganised in code, never changed in what they do.
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v2.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v2-agents")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v2-agents"))
    }

    func testMigrateUpToV3_makesExactlyTheSchemaTheReleaseMade() throws {
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v3.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v3-scale")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v3-scale"))
    }

    func testMigrateUpToV4_makesExactlyTheSchemaTheReleaseMade() throws {
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v4.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v4-agent-names")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v4-agent-names"))
    }

    func testMigrateUpToV5_makesExactlyTheSchemaTheReleaseMade() throws {
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v5.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v5-products")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v5-products"))
    }

    func testOpen_emptyFolder_makesTheSchemaOfTheLatestMigration() throws {
        // schema-v12-label-check.sql is what v12-label-check made when it was written; it must not drift either.
        let path = try makeDatabasePath()
        try Catalogue(path: path, logger: testLogger).close()
        XCTAssertEqual(try DatabaseQueue(path: path).read(schema), try reference("schema-v12-label-check"))
    }

    func testMigrateUpToV11_makesExactlyTheSchemaV11TextMade() throws {
        let queue = try queueWithFold(try makeTemporaryFolder() + "/v11.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v11-text")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v11-text"))
    }

    func testMigrateUpToV10_makesExactlyTheSchemaV10AddonsMade() throws {
        let queue = try queueWithFold(try makeTemporaryFolder() + "/v10.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v10-addons")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v10-addons"))
    }

    func testMigrateUpToV9_makesExactlyTheSchemaV9SearchSQLFoldMade() throws {
        let queue = try queueWithFold(try makeTemporaryFolder() + "/v9.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v9-search-sql-fold")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v9-search-sql-fold"))
    }

    func testMigrateUpToV8_makesExactlyTheSchemaV8SearchMade() throws {
        let queue = try queueWithFold(try makeTemporaryFolder() + "/v8.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v8-search")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v8-search"))
    }

    func testMigrateV8ToV9_searchedTextIsKeptAndNoTriggerCallsIngestFold() throws {
        let path = try databaseMade(upTo: "v8-search", rows: """
            INSERT INTO capture (id, set_name, barcode, symbology, gtin13, captured_at, captured_utc, time_source,
                                 photo_count, quality, rating, created_at)
                VALUES ('c1', 'Épicerie', '955812235532', 'UPC-A', '0955812235532', '2026-11-21T14:03:09+01:00', 1,
                        'exif', 1, 0.5, 'Good', 't'),
                       ('c2', 'aisle', NULL, NULL, NULL, '2026-11-21T14:04:09+01:00', 2, 'exif', 1, 0.5, 'Good', 't');
            INSERT INTO product (gtin14, code, name, brands, source)
                VALUES ('00955812235532', '955812235532', 'Peanut butter', 'Crème Co', 'off');
            """)
        let (before, names) = try DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT text FROM capture_text ORDER BY id"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"))
        }
        let catalogue = try Catalogue(path: path, logger: testLogger)
        defer { try? catalogue.close() }
        XCTAssertEqual(try catalogue.read { db in try db.column(String.self, "SELECT text FROM capture_text ORDER BY id") }, before)
        XCTAssertEqual(try catalogue.read { db in
            try db.column(String.self, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }.filter { !$0.hasPrefix("photo_") }, names, "the same triggers, made anew (and v11-text's of the photos' words)")
        let triggers = try catalogue.read { db in try db.column(String.self, "SELECT sql FROM sqlite_master WHERE type = 'trigger'") }
        XCTAssertFalse(triggers.contains { $0.contains("ingest_fold") }, "\(triggers)")
        // Written by a connection without ingest_fold, as SQLite's CLI is.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE capture SET set_name = 'Crémerie' WHERE id = 'c2'")
            try db.execute(sql: "UPDATE product SET name = 'Almond butter' WHERE gtin14 = '00955812235532'")
        }
        let reopened = try Catalogue(path: path, logger: testLogger)
        defer { try? reopened.close() }
        let found = { (term: String) in try reopened.captures(matching: CaptureFilter(search: term)).map(\.id) }
        XCTAssertEqual(try found("cremerie"), ["c2"])
        XCTAssertEqual(try found("almond"), ["c1"])
        XCTAssertEqual(try found("peanut"), [])
        XCTAssertEqual(try found("creme co"), ["c1"])
        XCTAssertEqual(try found("epicerie"), ["c1"])
    }

    func testMigrateUpToV6_makesExactlyTheSchemaV6WorkersMade() throws {
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v6.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v6-workers")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v6-workers"))
    }

    func testMigrateV6ToV7_capturesCatalogedBeforeCanBeMergedAndTheMergeUndone() throws {
        let path = try databaseMade(upTo: "v6-workers", rows: """
            INSERT INTO capture (id, set_name, captured_at, captured_utc, time_source, photo_count, quality, rating, created_at)
                VALUES ('c1', 's', '2026-11-21T14:03:09Z', 1, 'exif', 1, 0.5, 'Fair', 't'),
                       ('c2', 's', '2026-11-21T14:04:09Z', 2, 'file-time', 1, 0.9, 'Excellent', 't');
            INSERT INTO photo (id, capture_id, position, original_name, source_path, original_path, thumb_path,
                               thumb_width, thumb_height, sha256, byte_size, format, width, height, orientation,
                               taken_at, taken_utc, time_source, sharpness, contrast, brightness, quality, rating)
                VALUES ('p1', 'c1', 0, 'a.jpg', 'a.jpg', 'originals/s/a.jpg', 'thumbs/s/a.jpg', 4, 3, '\(makeHash(1))',
                        1, 'jpeg', 4, 3, 1, '2026-11-21T14:03:09Z', 1, 'exif', 0.5, 0.5, 0.5, 0.5, 'Fair'),
                       ('p2', 'c2', 0, 'b.jpg', 'b.jpg', 'originals/s/b.jpg', 'thumbs/s/b.jpg', 4, 3, '\(makeHash(2))',
                        1, 'jpeg', 4, 3, 1, '2026-11-21T14:04:09Z', 2, 'file-time', 0.5, 0.5, 0.5, 0.9, 'Excellent');
            """)
        let catalogue = try Catalogue(path: path, logger: testLogger)
        XCTAssertEqual(try catalogue.captures(flaggedFor: .fileTime, limit: 10).map(\.id), ["c2"])
        let before = try catalogue.captures()
        let edit = try catalogue.applyEdit(to: ["c1", "c2"], origin: "test", madeAt: "2026-11-24T00:00:00Z") { found in
            var merged = found[0]
            merged.photos = found.flatMap(\.photos).enumerated().map { index, photo in
                var moved = photo
                (moved.captureId, moved.position) = ("c1", index)
                return moved
            }
            merged.capture.photoCount = 2
            return EditPlan(kind: .merge, summary: "merged", after: [merged])
        }
        XCTAssertEqual(try catalogue.photos(ofCapture: "c1").map(\.id), ["p1", "p2"])
        _ = try catalogue.undoEdit(id: edit.id, origin: "test", madeAt: "2026-11-24T00:00:01Z")
        XCTAssertEqual(try catalogue.captures(), before)
    }

    func testMigrateV7ToV8_capturesCatalogedBeforeAreFoundByTheirSetCodeAndProduct() throws {
        let path = try databaseMade(upTo: "v7-edits", rows: """
            INSERT INTO capture (id, set_name, barcode, symbology, gtin13, captured_at, captured_utc, time_source,
                                 photo_count, quality, rating, created_at)
                VALUES ('c1', 'Épicerie', '955812235532', 'UPC-A', '0955812235532', '2026-11-21T14:03:09+01:00', 1,
                        'exif', 1, 0.5, 'Good', 't'),
                       ('c2', 'aisle', NULL, NULL, NULL, '2026-11-21T14:04:09+01:00', 2, 'exif', 1, 0.5, 'Good', 't');
            INSERT INTO product (gtin14, code, name, brands, source)
                VALUES ('00955812235532', '955812235532', 'Peanut butter', 'Crème Co', 'off');
            """)
        let catalogue = try Catalogue(path: path, logger: testLogger)
        let found = { (term: String) in try catalogue.captures(matching: CaptureFilter(search: term)).map(\.id) }
        XCTAssertEqual(try found("epicerie"), ["c1"])
        XCTAssertEqual(try found("PEANUT"), ["c1"])
        XCTAssertEqual(try found("creme co"), ["c1"])
        XCTAssertEqual(try found("5812235"), ["c1"])
        XCTAssertEqual(try found("aisle"), ["c2"])
    }

    func testMigrateUpToV7_makesExactlyTheSchemaV7EditsMade() throws {
        let queue = try DatabaseQueue(path: try makeTemporaryFolder() + "/v7.sqlite")
        try Catalogue.migrator.migrate(queue, upTo: "v7-edits")
        XCTAssertEqual(try queue.read(schema), try reference("schema-v7-edits"))
    }

    func testMigrateV4ToV5_capturesCatalogedBeforeFindTheirProduct() throws {
        let path = try databaseMade(upTo: "v4-agent-names", rows: """
            INSERT INTO capture (id, set_name, barcode, symbology, gtin13, captured_at, captured_utc, time_source,
                                 photo_count, quality, rating, created_at)
                VALUES ('c1', 's', '955812235532', 'UPC-A', '0955812235532', '2026-11-21T14:03:09+01:00', 1,
                        'exif', 1, 0.5, 'Good', 't');
            """)
        let catalogue = try Catalogue(path: path, logger: testLogger)
        XCTAssertEqual(try catalogue.productStats().capturesWithoutProduct, 1)
        _ = try catalogue.upsertProducts([Product(gtin14: "00955812235532", code: "955812235532", name: "Peanut butter",
                                                  source: .off)], replaceManual: false)
        XCTAssertEqual(try catalogue.products(forGTIN13s: ["0955812235532"])["0955812235532"]?.name, "Peanut butter")
        XCTAssertEqual(try catalogue.productStats().capturesWithProduct, 1)
    }

    func testMigrateV3ToV4_keepsEveryNameCapturesWereTakenUnder() throws {
        let path = try databaseMade(upTo: "v3-scale", rows: """
            INSERT INTO agent (id, name, first_seen, last_seen) VALUES ('chef', 'Practical Chef', 'a', 'b');
            INSERT INTO capture (id, set_name, captured_at, captured_utc, time_source, photo_count, quality,
                                 rating, created_at, agent_id, agent_name)
                VALUES ('c1', 's', 't', 1, 'exif', 1, 0.5, 'Good', 't', 'chef', 'Cuisine Émile'),
                       ('c2', 's', 't', 2, 'exif', 1, 0.5, 'Good', 't', 'chef', 'Cuisine Émile'),
                       ('c3', 's', 't', 3, 'exif', 1, 0.5, 'Good', 't', NULL, NULL);
            """)
        let catalogue = try Catalogue(path: path, logger: testLogger)
        let names = try catalogue.read { db in
            var names: [[String]] = []
            try db.query("SELECT agent_id, name FROM agent_name", []) { names.append([$0[0], $0[1]]) }
            return names
        }
        XCTAssertEqual(names, [["chef", "Cuisine Émile"]])
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(agent: "émile")).map(\.id), ["c2", "c1"])
    }

    func testOpen_emptyFolder_createsEveryTableWithItsColumns() throws {
        let path = try makeDatabasePath()
        try Catalogue(path: path, logger: testLogger).close()
        let catalogue = try DatabaseQueue(path: path)
        let expected: [String: [String]] = [
            "run": ["id", "started_at", "finished_at", "inbox", "sets", "captures", "photos", "duplicates",
                    "quarantined", "failed"],
            "capture": ["id", "run_id", "set_name", "barcode", "symbology", "gtin13", "captured_at", "captured_utc",
                        "time_source", "photo_count", "quality", "rating", "created_at",
                        "agent_id", "agent_name", "request_id", "note", "context_path", "addon"],
            "agent": ["id", "name", "first_seen", "last_seen"],
            "photo": ["id", "capture_id", "position", "original_name", "source_path", "original_path", "thumb_path",
                      "thumb_width", "thumb_height", "sha256", "byte_size", "format", "width", "height",
                      "orientation", "make", "model", "taken_at", "taken_utc", "time_source", "sharpness",
                      "contrast", "brightness", "decode_confidence", "quality", "rating", "original_modified"],
            "barcode_hit": ["id", "photo_id", "symbology", "text", "gtin13", "quality", "x", "y", "width", "height", "addon"],
            "product": ["id", "gtin14", "code", "name", "brands", "quantity", "serving_size", "nutriscore_grade", "nova_group",
                        "categories", "energy_kcal", "fat", "saturated_fat", "carbohydrates", "sugars", "fiber", "proteins",
                        "salt", "last_modified", "source", "alias_of"],
            "worker": ["id", "host", "pid", "started_at", "lease_until"],
            "set_claim": ["set_name", "worker_id", "claimed_utc", "lease_until"],
            "edit": ["id", "kind", "made_at", "origin", "summary", "before_state", "after_state", "undoes", "undone_by",
                     "purged_at"],
            "edit_capture": ["capture_id", "edit_id"],
            "held_file": ["path", "edit_id"],
            "photo_text": ["photo_id", "state", "reason", "languages", "quarter_turns", "text", "headline", "nutrition", "seconds",
                           "read_at"],
            "photo_word": ["photo_id", "position", "text", "line", "block", "x", "y", "width", "height", "confidence"],
        ]
        try catalogue.read { db in
            for (table, columns) in expected {
                XCTAssertEqual(try db.columns(in: table).map(\.name), columns, table)
            }
            let notNull = try db.columns(in: "capture").filter(\.isNotNull).map(\.name)
            XCTAssertFalse(notNull.contains("barcode"))
            XCTAssertTrue(notNull.contains("captured_utc"))
        }
    }

    func testOpen_emptyFolder_createsForeignKeysAndIndexes() throws {
        let path = try makeDatabasePath()
        let catalogue = try Catalogue(path: path, logger: testLogger)
        XCTAssertEqual(try catalogue.read { db in try db.scalar(String.self, "PRAGMA journal_mode") }, "wal")
        XCTAssertEqual(try catalogue.read { db in try db.scalar(Bool.self, "PRAGMA foreign_keys") }, true)
        try DatabaseQueue(path: path).read { db in
            let photoKeys = try db.foreignKeys(on: "photo")
            XCTAssertEqual(photoKeys.map(\.destinationTable), ["capture"])
            XCTAssertEqual(photoKeys.first?.originColumns, ["capture_id"])
            let captureIndexes = Set(try db.indexes(on: "capture").map(\.columns))
            for columns in [["captured_utc", "id"], ["barcode", "captured_utc", "id"], ["gtin13", "captured_utc", "id"],
                            ["set_name", "captured_utc", "id"], ["rating", "captured_utc", "id"], ["agent_id", "captured_utc", "id"]] {
                XCTAssertTrue(captureIndexes.contains(columns), "capture\(columns)")
            }
            XCTAssertTrue(try db.indexes(on: "photo").contains { $0.columns.first == "capture_id" })
            XCTAssertTrue(try db.indexes(on: "barcode_hit").contains { $0.columns == ["photo_id"] })
        }
    }

    func testOpen_newDatabase_appliesEverySchemaVersion() throws {
        let catalogue = try Catalogue(path: try makeDatabasePath(), logger: testLogger)
        XCTAssertEqual(Catalogue.schemaVersions, ["v1", "v2-agents", "v3-scale", "v4-agent-names", "v5-products", "v6-workers",
                                                   "v7-edits", "v8-search", "v9-search-sql-fold", "v10-addons", "v11-text", "v12-label-check"])
        XCTAssertEqual(try catalogue.store.appliedMigrations(), Set(Catalogue.schemaVersions))
    }

    func testOpen_secondTime_keepsDataAndRunsNoMigration() throws {
        let path = try makeDatabasePath()
        do {
            let first = try Catalogue(path: path, logger: testLogger)
            try first.commit(makeSet(captureId: "c1", firstSeed: 1))
        }
        let second = try Catalogue(path: path, logger: testLogger)
        let counts = try second.counts()
        XCTAssertEqual([counts.captures, counts.photos, counts.hits], [1, 2, 2])
        let recorded = try second.read { db in try db.column(String.self, "SELECT identifier FROM grdb_migrations") }
        XCTAssertEqual(recorded, Catalogue.schemaVersions)
    }

    func testOpen_databaseWithUnknownMigration_throwsNewerSchema() throws {
        let path = try makeDatabasePath()
        _ = try Catalogue(path: path, logger: testLogger)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        }
        assertThrows(.newerSchema(path: path, unknownMigrations: ["v9-from-the-future"])) {
            try Catalogue(path: path, logger: testLogger)
        }
    }

    func testOpen_fileThatIsNotSQLite_throwsNotADatabase() throws {
        let path = try makeDatabasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let text = String(repeating: "capture_id,set_name,barcode\n", count: 100)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        assertThrows(.notADatabase(path: path)) {
            try Catalogue(path: path, logger: testLogger)
        }
    }

    func testOpen_parentIsAFile_throwsCannotOpenNamingThePath() throws {
        let blocker = try URL(fileURLWithPath: makeTemporaryFolder()).appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("catalogue.sqlite").path
        XCTAssertThrowsError(try Catalogue(path: path, logger: testLogger)) { error in
            guard case let .cannotOpen(reportedPath, _)? = error as? CatalogError else {
                return XCTFail("expected cannotOpen, got \(error)")
            }
            XCTAssertEqual(reportedPath, path)
            XCTAssertTrue("\(error)".hasPrefix(path))
        }
    }

    func testNewerSchemaDescription_namesPathAndMigration() {
        let error = CatalogError.newerSchema(path: "/tmp/c.sqlite", unknownMigrations: ["v2-tags"])
        XCTAssertTrue(error.description.hasPrefix("/tmp/c.sqlite: "))
        XCTAssertTrue(error.description.contains("v2-tags"))
        XCTAssertTrue(error.description.contains("upgrade ingest"))
    }
}

final class ColumnNamingTests: XCTestCase {
    func testEveryColumnOfTheSchema_mapsToItsPropertyAndBack() throws {
        let catalogue = try Catalogue(path: try makeTemporaryFolder() + "/c.sqlite", logger: testLogger)
        let columns = try catalogue.read { db in
            try db.column(String.self, """
                SELECT p.name FROM sqlite_master m, pragma_table_info(m.name) p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE 'grdb_%'
                """)
        }
        XCTAssertGreaterThan(columns.count, 50)
        for column in columns {
            let property = ColumnNaming.propertyName(forColumn: column)
            XCTAssertEqual(ColumnNaming.columnName(forProperty: property), column, "via \(property)")
        }
    }

    func testColumnName_splitsWordsAtCapitals_keepsDigitsAndAcronyms() {
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "capturedUTC"), "captured_utc")
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "thumbPath"), "thumb_path")
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "sha256"), "sha256")
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "gtin13"), "gtin13")
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "utcOffsetSeconds"), "utc_offset_seconds")
        XCTAssertEqual(ColumnNaming.columnName(forProperty: "id"), "id")
    }
}
