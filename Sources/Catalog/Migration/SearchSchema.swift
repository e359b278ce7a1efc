import GRDB

// Migration `v8-search`, both backends: the text free-text search looks in, one row per capture in
// `capture_text`, kept by triggers. Triggers rather than the code that writes captures and products:
// commits, corrections and their undo, product imports and `catalog copy` all change what a capture's
// text is, and a trigger cannot be forgotten by one of them. `capture_text` is derived, so `catalog
// copy` does not carry it: the destination's triggers make it.
//
// A capture's text is its set name, code, GTIN-13, and its product's name and brands (when the
// catalogue knows the product), folded (`ingest_fold`) and separated by U+001F, which a folded search
// term never holds (`CaptureFilter.searchTerm`), so a term never matches across two of them.
// `captured_utc` is kept beside the text, and SQLite's index on (captured_utc, capture_id, text)
// holds all three: a search that matches many captures reads that index newest first and stops at a
// full page, never the captures' rows (100,000 captures: about 20 ms for a term found nowhere,
// against 140 ms for the fold of every capture's columns before). SQLite also indexes the text's
// trigrams (FTS5, external content): a term found in few captures reads only those.

enum SearchSchema {
    /// The text of the capture `c` (a table alias or a trigger's `new`), in either dialect, each
    /// part folded by the SQL function `fold`.
    ///
    /// With `words` (from `v11-text` on), the words read on its photos (`photo_text.text`) follow,
    /// one photo's after another.
    static func text(of c: String, _ dialect: SQLDialect, fold: String = "ingest_fold", words: Bool = false) -> String {
        let separator = dialect == .sqlite ? "char(31)" : "chr(31)"
        let concatenated = dialect == .sqlite ? "group_concat(\(fold)(t.text), \(separator))" : "string_agg(\(fold)(t.text), \(separator))"
        let photoWords = !words ? "" : """
             || coalesce((
                    SELECT \(separator) || \(concatenated) FROM photo_text t JOIN photo ph ON ph.id = t.photo_id
                    WHERE ph.capture_id = \(c).id AND t.text <> ''), '')
            """
        return """
            \(fold)(\(c).set_name) || \(separator) || coalesce(\(fold)(\(c).barcode), '') || \(separator)
                || coalesce(\(c).gtin13, '') || coalesce((
                    SELECT \(separator) || coalesce(\(fold)(p.name), '') || \(separator) || coalesce(\(fold)(p.brands), '')
                    FROM product p WHERE p.gtin14 = '0' || \(c).gtin13), '')\(photoWords)
            """
    }

    /// The captures whose text names the product of GTIN-14 `gtin14` get their text again, folded
    /// by `fold`.
    private static func sqliteProductChanged(_ gtin14: String, fold: String = "ingest_fold", words: Bool = false) -> String {
        """
        UPDATE capture_text SET text = (SELECT \(text(of: "c", .sqlite, fold: fold, words: words)) FROM capture c WHERE c.id = capture_text.capture_id)
            WHERE capture_id IN (\(sqliteCaptures(of: gtin14)));
        """
    }

    /// The ids of the captures of the product of GTIN-14 `gtin14`.
    private static func sqliteCaptures(of gtin14: String) -> String {
        "SELECT id FROM capture WHERE gtin13 = substr(\(gtin14), 2) AND substr(\(gtin14), 1, 1) = '0'"
    }

    /// Whether a capture has the product of GTIN-14 `gtin14`: a product trigger's `WHEN`. Most
    /// products of a dump have no capture, and an `UPDATE` in a trigger opens a statement journal
    /// each time it runs: without the test an import of 200,000 products took 14 s, not 3 s.
    private static func sqliteHasCaptures(_ gtin14: String) -> String {
        "(substr(\(gtin14), 1, 1) = '0' AND EXISTS (SELECT 1 FROM capture WHERE gtin13 = substr(\(gtin14), 2)))"
    }

    /// SQLite's `v8-search`: the table, its index and trigram index, the triggers, and the text of
    /// every capture catalogued before. The trigram tokenizer compares bytes as they are
    /// (`case_sensitive 1`): text and terms are folded already.
    static func addSearch(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE capture_text (
                id INTEGER PRIMARY KEY,
                capture_id TEXT NOT NULL UNIQUE,
                captured_utc REAL NOT NULL,
                text TEXT NOT NULL
            );
            CREATE INDEX capture_text_on_captured_utc_capture_id ON capture_text(captured_utc, capture_id, text);
            CREATE VIRTUAL TABLE capture_text_index USING fts5(
                text, content = 'capture_text', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
            );
            CREATE TRIGGER capture_text_inserted AFTER INSERT ON capture_text BEGIN
                INSERT INTO capture_text_index (rowid, text) VALUES (new.id, new.text);
            END;
            CREATE TRIGGER capture_text_deleted AFTER DELETE ON capture_text BEGIN
                INSERT INTO capture_text_index (capture_text_index, rowid, text) VALUES ('delete', old.id, old.text);
            END;
            CREATE TRIGGER capture_text_updated AFTER UPDATE OF text ON capture_text BEGIN
                INSERT INTO capture_text_index (capture_text_index, rowid, text) VALUES ('delete', old.id, old.text);
                INSERT INTO capture_text_index (rowid, text) VALUES (new.id, new.text);
            END;
            CREATE TRIGGER capture_inserted_search AFTER INSERT ON capture BEGIN
                INSERT INTO capture_text (capture_id, captured_utc, text) VALUES (new.id, new.captured_utc, \(text(of: "new", .sqlite)));
            END;
            CREATE TRIGGER capture_updated_search AFTER UPDATE OF id, set_name, barcode, gtin13, captured_utc ON capture BEGIN
                UPDATE capture_text SET capture_id = new.id, captured_utc = new.captured_utc, text = \(text(of: "new", .sqlite))
                    WHERE capture_id = old.id;
            END;
            CREATE TRIGGER capture_deleted_search AFTER DELETE ON capture BEGIN
                DELETE FROM capture_text WHERE capture_id = old.id;
            END;
            CREATE TRIGGER product_inserted_search AFTER INSERT ON product WHEN \(sqliteHasCaptures("new.gtin14")) BEGIN
                \(sqliteProductChanged("new.gtin14"))
            END;
            CREATE TRIGGER product_updated_search AFTER UPDATE OF gtin14, name, brands ON product
                WHEN \(sqliteHasCaptures("old.gtin14")) OR \(sqliteHasCaptures("new.gtin14")) BEGIN
                \(sqliteProductChanged("old.gtin14"))
                \(sqliteProductChanged("new.gtin14"))
            END;
            CREATE TRIGGER product_deleted_search AFTER DELETE ON product WHEN \(sqliteHasCaptures("old.gtin14")) BEGIN
                \(sqliteProductChanged("old.gtin14"))
            END;
            INSERT INTO capture_text (capture_id, captured_utc, text)
                SELECT c.id, c.captured_utc, \(text(of: "c", .sqlite)) FROM capture c;
            """)
    }

    /// PostgreSQL's `v8-search`: the same table and triggers (trigger functions in PL/pgSQL). Its
    /// index leaves the text out: a B-tree entry holds at most about 2,700 bytes, and a product's
    /// name may be longer. A search reads the text from the table.
    static let postgres = """
        CREATE TABLE capture_text (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            capture_id TEXT COLLATE "C" NOT NULL UNIQUE,
            captured_utc DOUBLE PRECISION NOT NULL,
            text TEXT COLLATE "C" NOT NULL
        );
        CREATE INDEX capture_text_on_captured_utc_capture_id ON capture_text(captured_utc, capture_id);

        CREATE FUNCTION ingest_capture_text(c capture) RETURNS text LANGUAGE sql STABLE AS $$
            SELECT \(text(of: "c", .postgres))
        $$;

        CREATE FUNCTION ingest_product_changed(gtin14 text) RETURNS void LANGUAGE sql AS $$
            UPDATE capture_text SET text = ingest_capture_text(c) FROM capture c
                WHERE c.id = capture_text.capture_id AND c.gtin13 = substr(gtin14, 2) AND left(gtin14, 1) = '0'
        $$;

        CREATE FUNCTION ingest_capture_search() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN
                DELETE FROM capture_text WHERE capture_id = OLD.id;
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                INSERT INTO capture_text (capture_id, captured_utc, text) VALUES (NEW.id, NEW.captured_utc, ingest_capture_text(NEW));
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER capture_search AFTER INSERT OR DELETE OR UPDATE OF id, set_name, barcode, gtin13, captured_utc ON capture
            FOR EACH ROW EXECUTE FUNCTION ingest_capture_search();

        CREATE FUNCTION ingest_product_search() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN
                PERFORM ingest_product_changed(OLD.gtin14);
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                PERFORM ingest_product_changed(NEW.gtin14);
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER product_search AFTER INSERT OR DELETE OR UPDATE OF gtin14, name, brands ON product
            FOR EACH ROW EXECUTE FUNCTION ingest_product_search();

        INSERT INTO capture_text (capture_id, captured_utc, text) SELECT c.id, c.captured_utc, ingest_capture_text(c) FROM capture c;
        """

    /// SQLite's `v9-search-sql-fold`: the triggers of `v8-search` without `ingest_fold`, a function
    /// only ingest's own connections have, so that SQLite's own `sqlite3` (or any other SQLite
    /// client) can write to captures and products; v8's triggers failed every such write with "no
    /// such function: ingest_fold".
    ///
    /// The triggers fold with SQLite's `lower()`, which lowers ASCII letters only: for text that is
    /// all ASCII, exactly `Catalogue.fold` (`lowercased()`, tested on every ASCII character). A row
    /// whose text holds anything else is marked `unfolded`, and ingest folds it with `Catalogue.fold`
    /// before any write transaction of its own commits (`refoldSQL`), and when it opens a catalogue
    /// that has such rows: a capture ingest writes is always exactly folded when its transaction
    /// commits; one another client wrote is exact at once when it is ASCII, and otherwise found by
    /// its ASCII letters (accents kept) until ingest next opens or writes the catalogue.
    static let sqliteFoldInSQL = """
        DROP TRIGGER capture_inserted_search;
        DROP TRIGGER capture_updated_search;
        DROP TRIGGER product_inserted_search;
        DROP TRIGGER product_updated_search;
        DROP TRIGGER product_deleted_search;
        ALTER TABLE capture_text ADD COLUMN unfolded INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX capture_text_unfolded ON capture_text(capture_id) WHERE unfolded;
        \(sqliteTriggers(words: false))
        """

    /// The triggers that keep `capture_text` as captures and products change, folding in SQL
    /// (`v9-search-sql-fold`), with the words of the photos from `v11-text` on.
    static func sqliteTriggers(words: Bool) -> String {
        """
        CREATE TRIGGER capture_inserted_search AFTER INSERT ON capture BEGIN
            INSERT INTO capture_text (capture_id, captured_utc, text) VALUES (new.id, new.captured_utc, \(text(of: "new", .sqlite, fold: "lower", words: words)));
            \(sqliteMarkUnfolded("capture_id = new.id"))
        END;
        CREATE TRIGGER capture_updated_search AFTER UPDATE OF id, set_name, barcode, gtin13, captured_utc ON capture BEGIN
            UPDATE capture_text SET capture_id = new.id, captured_utc = new.captured_utc, text = \(text(of: "new", .sqlite, fold: "lower", words: words))
                WHERE capture_id = old.id;
            \(sqliteMarkUnfolded("capture_id = new.id"))
        END;
        CREATE TRIGGER product_inserted_search AFTER INSERT ON product WHEN \(sqliteHasCaptures("new.gtin14")) BEGIN
            \(sqliteProductChanged("new.gtin14", fold: "lower", words: words))
            \(sqliteMarkUnfolded("capture_id IN (\(sqliteCaptures(of: "new.gtin14")))"))
        END;
        CREATE TRIGGER product_updated_search AFTER UPDATE OF gtin14, name, brands ON product
            WHEN \(sqliteHasCaptures("old.gtin14")) OR \(sqliteHasCaptures("new.gtin14")) BEGIN
            \(sqliteProductChanged("old.gtin14", fold: "lower", words: words))
            \(sqliteProductChanged("new.gtin14", fold: "lower", words: words))
            \(sqliteMarkUnfolded("capture_id IN (\(sqliteCaptures(of: "old.gtin14")))"))
            \(sqliteMarkUnfolded("capture_id IN (\(sqliteCaptures(of: "new.gtin14")))"))
        END;
        CREATE TRIGGER product_deleted_search AFTER DELETE ON product WHEN \(sqliteHasCaptures("old.gtin14")) BEGIN
            \(sqliteProductChanged("old.gtin14", fold: "lower", words: words))
            \(sqliteMarkUnfolded("capture_id IN (\(sqliteCaptures(of: "old.gtin14")))"))
        END;
        """
    }

    /// Marks the rows of `capture_text` that `condition` picks `unfolded` where their text holds a
    /// character that is not ASCII: its length in characters is then less than its length in bytes
    /// (or it holds a NUL, where `length` stops counting: folded again too, which is harmless).
    static func sqliteMarkUnfolded(_ condition: String) -> String {
        """
        UPDATE capture_text SET unfolded = 1
            WHERE \(condition) AND length(text) <> length(CAST(text AS BLOB));
        """
    }

    /// Folds the text of the rows `v9-search-sql-fold`'s triggers marked `unfolded` with
    /// `ingest_fold`: run by ingest at the end of each of its SQLite write transactions and when it
    /// opens a catalogue with such rows. Reads the partial index `capture_text_unfolded`, empty
    /// but for those rows.
    static let refoldSQL = """
        UPDATE capture_text SET unfolded = 0,
            text = (SELECT \(text(of: "c", .sqlite, words: true)) FROM capture c WHERE c.id = capture_text.capture_id)
            WHERE unfolded
        """

    /// Whether any row waits to be folded (`refoldSQL`).
    static let hasUnfoldedSQL = "SELECT EXISTS (SELECT 1 FROM capture_text WHERE unfolded)"
}
