import Foundation
import GRDB

// Migrations never change once shipped: a catalogue made by a released ingest
// has recorded their identifiers in `grdb_migrations` and will not run them
// again. A schema change is a new migration appended at the end ("v2-…"),
// tested by opening a database made with the previous migrations. The SQL is
// written out rather than built with GRDB's schema DSL so that it cannot drift
// when GRDB does.

extension Catalogue {
    /// The identifiers of the migrations this version knows, oldest first.
    package static let schemaVersions: [String] = migrator.migrations

    /// Every migration of the catalogue, in the order they run.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try createTables(db) }
        migrator.registerMigration("v2-agents") { db in try addAgents(db) }
        migrator.registerMigration("v3-scale") { db in try indexForScale(db) }
        migrator.registerMigration("v4-agent-names") { db in try addAgentNames(db) }
        migrator.registerMigration("v5-products") { db in try addProducts(db) }
        migrator.registerMigration("v6-workers") { db in try db.execute(sql: workersSQL) }
        migrator.registerMigration("v7-edits") { db in try addEdits(db) }
        migrator.registerMigration("v8-search") { db in try SearchSchema.addSearch(db) }
        migrator.registerMigration("v9-search-sql-fold") { db in try db.execute(sql: SearchSchema.sqliteFoldInSQL) }
        migrator.registerMigration("v10-addons") { db in try db.execute(sql: addonsSQL) }
        migrator.registerMigration("v11-text") { db in try db.execute(sql: TextSchema.sqlite + SearchSchema.sqliteWordsSQL) }
        migrator.registerMigration("v12-label-check") { db in try db.execute(sql: TextSchema.nutritionIndex) }
        return migrator
    }

    /// Version 10: the 2- or 5-digit add-on printed beside an EAN-13 or UPC code (a magazine's
    /// issue, a book's price), on each hit and on the capture, apart from the code: the GTIN stays
    /// the key.
    private static let addonsSQL = """
        ALTER TABLE capture ADD COLUMN addon TEXT CHECK (addon IS NULL OR length(addon) IN (2, 5));
        ALTER TABLE barcode_hit ADD COLUMN addon TEXT CHECK (addon IS NULL OR length(addon) IN (2, 5));
        """

    /// Version 1: runs, captures, their photos and every barcode hit. One statement group per
    /// table, executed in this order; the SQL is exactly what the first release ran.
    private static func createTables(_ db: Database) throws {
        try createRunTable(db)
        try createCaptureTable(db)
        try createPhotoTable(db)
        try createBarcodeHitTable(db)
    }

    /// The runs of `ingest run` and `ingest watch`.
    private static func createRunTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE run (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                started_at TEXT NOT NULL,
                finished_at TEXT,
                inbox TEXT NOT NULL,
                sets INTEGER NOT NULL DEFAULT 0 CHECK (sets >= 0),
                captures INTEGER NOT NULL DEFAULT 0 CHECK (captures >= 0),
                photos INTEGER NOT NULL DEFAULT 0 CHECK (photos >= 0),
                duplicates INTEGER NOT NULL DEFAULT 0 CHECK (duplicates >= 0),
                quarantined INTEGER NOT NULL DEFAULT 0 CHECK (quarantined >= 0),
                failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0)
            );
            """)
    }

    /// Product captures, with the indexes `list` filters use.
    private static func createCaptureTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE capture (
                id TEXT NOT NULL PRIMARY KEY,
                run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
                set_name TEXT NOT NULL,
                barcode TEXT,
                symbology TEXT,
                gtin13 TEXT CHECK (gtin13 IS NULL OR length(gtin13) = 13),
                captured_at TEXT NOT NULL,
                captured_utc REAL NOT NULL,
                time_source TEXT NOT NULL,
                photo_count INTEGER NOT NULL CHECK (photo_count >= 1),
                quality REAL NOT NULL CHECK (quality BETWEEN 0 AND 1),
                rating TEXT NOT NULL CHECK (rating IN ('Excellent', 'Good', 'Fair', 'Poor')),
                created_at TEXT NOT NULL
            );
            CREATE INDEX capture_on_captured_utc ON capture(captured_utc);
            CREATE INDEX capture_on_barcode ON capture(barcode);
            CREATE INDEX capture_on_gtin13 ON capture(gtin13);
            CREATE INDEX capture_on_set_name ON capture(set_name);
            CREATE INDEX capture_on_run_id ON capture(run_id);
            """)
    }

    /// Photos of captures, with where their files live and what was measured.
    private static func createPhotoTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE photo (
                id TEXT NOT NULL PRIMARY KEY,
                capture_id TEXT NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                original_name TEXT NOT NULL,
                source_path TEXT NOT NULL,
                original_path TEXT NOT NULL UNIQUE,
                thumb_path TEXT NOT NULL,
                thumb_width INTEGER NOT NULL CHECK (thumb_width > 0),
                thumb_height INTEGER NOT NULL CHECK (thumb_height > 0),
                sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
                byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
                format TEXT NOT NULL,
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                orientation INTEGER NOT NULL,
                make TEXT,
                model TEXT,
                taken_at TEXT NOT NULL,
                taken_utc REAL NOT NULL,
                time_source TEXT NOT NULL,
                sharpness REAL NOT NULL,
                contrast REAL NOT NULL,
                brightness REAL NOT NULL,
                decode_confidence REAL,
                quality REAL NOT NULL CHECK (quality BETWEEN 0 AND 1),
                rating TEXT NOT NULL CHECK (rating IN ('Excellent', 'Good', 'Fair', 'Poor'))
            );
            -- Also serves every lookup by capture_id alone.
            CREATE UNIQUE INDEX photo_on_capture_id_position ON photo(capture_id, position);
            """)
    }

    /// Every barcode read on a photo.
    private static func createBarcodeHitTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE barcode_hit (
                id INTEGER PRIMARY KEY,
                photo_id TEXT NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
                symbology TEXT NOT NULL,
                text TEXT NOT NULL,
                gtin13 TEXT CHECK (gtin13 IS NULL OR length(gtin13) = 13),
                quality INTEGER NOT NULL,
                x INTEGER NOT NULL,
                y INTEGER NOT NULL,
                width INTEGER NOT NULL CHECK (width >= 0),
                height INTEGER NOT NULL CHECK (height >= 0)
            );
            CREATE INDEX barcode_hit_on_photo_id ON barcode_hit(photo_id);
            """)
    }

    /// Version 2: the agents photo sets are captured for (from `capture.json`), and each capture's
    /// agent context. Captures keep the agent's name as it was, the `agent` table the latest one.
    private static func addAgents(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE agent (
                id TEXT NOT NULL PRIMARY KEY CHECK (length(id) >= 1),
                name TEXT NOT NULL,
                first_seen TEXT NOT NULL,
                last_seen TEXT NOT NULL
            );

            ALTER TABLE capture ADD COLUMN agent_id TEXT REFERENCES agent(id);
            ALTER TABLE capture ADD COLUMN agent_name TEXT;
            ALTER TABLE capture ADD COLUMN request_id TEXT;
            ALTER TABLE capture ADD COLUMN note TEXT;
            ALTER TABLE capture ADD COLUMN context_path TEXT;
            CREATE INDEX capture_on_agent_id ON capture(agent_id);
            """)
    }

    /// Version 3: a catalogue of millions of captures. Every filter of `list` has an index that
    /// also gives its order (newest first: `captured_utc`, then `id`), so a page reads only its own
    /// rows; they replace the single-column indexes they begin with. The set index also gives the
    /// CSV export its order. `photo.thumb_path` is indexed for `verify`'s lookups of library files,
    /// and `photo.original_modified` (nanoseconds since 1970, of the original as it was analysed;
    /// NULL for photos catalogued before) lets `verify --quick` compare sizes and times unhashed.
    private static func indexForScale(_ db: Database) throws {
        try db.execute(sql: """
            DROP INDEX capture_on_captured_utc;
            DROP INDEX capture_on_set_name;
            DROP INDEX capture_on_barcode;
            DROP INDEX capture_on_gtin13;
            DROP INDEX capture_on_agent_id;
            CREATE INDEX capture_on_captured_utc_id ON capture(captured_utc, id);
            CREATE INDEX capture_on_set_name_captured_utc_id ON capture(set_name, captured_utc, id);
            CREATE INDEX capture_on_barcode_captured_utc_id ON capture(barcode, captured_utc, id);
            CREATE INDEX capture_on_gtin13_captured_utc_id ON capture(gtin13, captured_utc, id);
            CREATE INDEX capture_on_rating_captured_utc_id ON capture(rating, captured_utc, id);
            CREATE INDEX capture_on_agent_id_captured_utc_id ON capture(agent_id, captured_utc, id);
            CREATE INDEX photo_on_thumb_path ON photo(thumb_path);
            ALTER TABLE photo ADD COLUMN original_modified INTEGER;
            """)
    }

    /// Version 4: every name each agent's captures were taken under, so that `list --agent` finds
    /// captures by an earlier name without reading every capture (0.5 s at a million captures).
    private static func addAgentNames(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE agent_name (
                agent_id TEXT NOT NULL REFERENCES agent(id),
                name TEXT NOT NULL,
                PRIMARY KEY (agent_id, name)
            ) WITHOUT ROWID;
            INSERT OR IGNORE INTO agent_name (agent_id, name)
                SELECT DISTINCT agent_id, agent_name FROM capture WHERE agent_id IS NOT NULL AND agent_name IS NOT NULL;
            """)
    }

    /// Version 5: what each barcode's product is (`ingest products`), keyed by GTIN-14. Captures are
    /// not changed: they find their product when read, by `'0' || capture.gtin13`, one probe of this
    /// primary key, so captures ingested before and after an import agree, and a million captures
    /// need no new column. `alias_of` marks the copy under an 8-digit code's UPC-E reading. A rowid
    /// table with the key in an index, not a WITHOUT ROWID one: a dump's codes come in random order,
    /// and each batch then rewrites small index pages rather than the wide rows' pages (an import of
    /// 500,000 products ran 1.6 times as fast).
    private static func addProducts(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE product (
                id INTEGER PRIMARY KEY,
                gtin14 TEXT NOT NULL UNIQUE CHECK (length(gtin14) = 14),
                code TEXT NOT NULL,
                name TEXT,
                brands TEXT,
                quantity TEXT,
                serving_size TEXT,
                nutriscore_grade TEXT,
                nova_group INTEGER,
                categories TEXT,
                energy_kcal REAL,
                fat REAL,
                saturated_fat REAL,
                carbohydrates REAL,
                sugars REAL,
                fiber REAL,
                proteins REAL,
                salt REAL,
                last_modified INTEGER,
                source TEXT NOT NULL CHECK (source IN ('off', 'manual')),
                alias_of TEXT
            );
            """)
    }

    /// Version 6: the workers sharing one catalogue, and the sets each has claimed (`set_claim`),
    /// for a lease of the database's clock (seconds since 1970): a set is ingested by the worker
    /// holding its claim, and a dead worker's claims lapse. Only a shared (PostgreSQL) catalogue
    /// fills them; a SQLite catalogue has one writer, held by the library's lock, and keeps them
    /// so that both have one schema (and `ingest catalog copy` one set of tables).
    static let workersSQL = """
        CREATE TABLE worker (
            id TEXT NOT NULL PRIMARY KEY,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            lease_until REAL NOT NULL
        );
        CREATE TABLE set_claim (
            set_name TEXT NOT NULL PRIMARY KEY,
            worker_id TEXT NOT NULL,
            claimed_utc REAL NOT NULL,
            lease_until REAL NOT NULL
        );
        CREATE INDEX set_claim_on_worker_id ON set_claim(worker_id);
        """
}
