// Migration `v11-text`, its search half, both backends: the words read on a capture's photos are
// part of the text free-text search looks in (`SearchSchema.text(of:words:)`), kept by triggers
// as `v8-search`'s are.

extension SearchSchema {
    /// SQLite's `v11-text`, the search half: the triggers of `v9-search-sql-fold` made again with
    /// the words read on the photos in each capture's text, and triggers that make a capture's text
    /// again when a photo's words are stored, read anew or removed, or the photo moves to another
    /// capture (a correction).
    static let sqliteWordsSQL = """
        DROP TRIGGER capture_inserted_search;
        DROP TRIGGER capture_updated_search;
        DROP TRIGGER product_inserted_search;
        DROP TRIGGER product_updated_search;
        DROP TRIGGER product_deleted_search;
        \(sqliteTriggers(words: true))
        CREATE TRIGGER photo_text_inserted_search AFTER INSERT ON photo_text BEGIN
            \(sqliteCaptureChanged("(SELECT capture_id FROM photo WHERE id = new.photo_id)"))
        END;
        CREATE TRIGGER photo_text_updated_search AFTER UPDATE OF text ON photo_text BEGIN
            \(sqliteCaptureChanged("(SELECT capture_id FROM photo WHERE id = new.photo_id)"))
        END;
        CREATE TRIGGER photo_text_deleted_search AFTER DELETE ON photo_text BEGIN
            \(sqliteCaptureChanged("(SELECT capture_id FROM photo WHERE id = old.photo_id)"))
        END;
        CREATE TRIGGER photo_moved_search AFTER UPDATE OF capture_id ON photo
            WHEN EXISTS (SELECT 1 FROM photo_text WHERE photo_id = new.id AND text <> '') BEGIN
            \(sqliteCaptureChanged("old.capture_id"))
            \(sqliteCaptureChanged("new.capture_id"))
        END;
        """

    /// The text of the capture whose id `captureId` (an SQL expression) gives made again, folded
    /// in SQL and marked where it is not ASCII.
    private static func sqliteCaptureChanged(_ captureId: String) -> String {
        """
        UPDATE capture_text SET text = (SELECT \(text(of: "c", .sqlite, fold: "lower", words: true)) FROM capture c WHERE c.id = capture_text.capture_id)
                WHERE capture_id = \(captureId);
            \(sqliteMarkUnfolded("capture_id = \(captureId)"))
        """
    }

    /// PostgreSQL's `v11-text`, the search half: `ingest_capture_text` with the photos' words, and
    /// the triggers that make a capture's text again when they change (SQLite's `sqliteWordsSQL`).
    static let postgresWords = """
        CREATE OR REPLACE FUNCTION ingest_capture_text(c capture) RETURNS text LANGUAGE sql STABLE AS $$
            SELECT \(text(of: "c", .postgres, words: true))
        $$;

        CREATE FUNCTION ingest_capture_changed(changed text) RETURNS void LANGUAGE sql AS $$
            UPDATE capture_text SET text = ingest_capture_text(c) FROM capture c
                WHERE c.id = capture_text.capture_id AND c.id = changed
        $$;

        CREATE FUNCTION ingest_photo_text_search() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN
                PERFORM ingest_capture_changed((SELECT capture_id FROM photo WHERE id = OLD.photo_id));
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                PERFORM ingest_capture_changed((SELECT capture_id FROM photo WHERE id = NEW.photo_id));
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER photo_text_search AFTER INSERT OR DELETE OR UPDATE OF text ON photo_text
            FOR EACH ROW EXECUTE FUNCTION ingest_photo_text_search();

        CREATE FUNCTION ingest_photo_moved_search() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM ingest_capture_changed(OLD.capture_id);
            PERFORM ingest_capture_changed(NEW.capture_id);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER photo_moved_search AFTER UPDATE OF capture_id ON photo
            FOR EACH ROW WHEN (OLD.capture_id IS DISTINCT FROM NEW.capture_id)
            EXECUTE FUNCTION ingest_photo_moved_search();
        """
}
