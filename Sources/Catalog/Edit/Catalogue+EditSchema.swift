import GRDB

extension Catalogue {
    /// Version 7 (`v7-edits`): corrections. `edit` records each one — merge, split, move, set-barcode, delete, or
    /// the undo of an earlier one — with the captures it touched as they were (`before_state`) and as
    /// it left them (`after_state`), JSON; `undone_by` and `undoes` link an edit and its undo.
    /// `edit_capture` says which edits touched a capture, for its page. `held_file` lists the library
    /// files of deleted captures, kept in place so that the delete can be undone until `ingest purge`
    /// removes them. Two indexes serve the review queue: captures by photo count, and the photos whose
    /// time is the file's (a partial index: only those rows). Plain SQL, no SQLite-only syntax; PostgreSQL's
    /// namesake is in `PostgresSchema`. `undone_by` is checked at commit (deferred), since it names a
    /// later edit: `catalog copy` inserts edits in id order.
    static func addEdits(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE edit (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('merge', 'split', 'move', 'set-barcode', 'delete', 'undo')),
                made_at TEXT NOT NULL,
                origin TEXT NOT NULL,
                summary TEXT NOT NULL,
                before_state TEXT NOT NULL,
                after_state TEXT NOT NULL,
                undoes INTEGER REFERENCES edit(id),
                undone_by INTEGER REFERENCES edit(id) DEFERRABLE INITIALLY DEFERRED,
                purged_at TEXT
            );
            CREATE TABLE edit_capture (
                capture_id TEXT NOT NULL,
                edit_id INTEGER NOT NULL REFERENCES edit(id),
                PRIMARY KEY (capture_id, edit_id)
            );
            CREATE TABLE held_file (
                path TEXT NOT NULL PRIMARY KEY,
                edit_id INTEGER NOT NULL REFERENCES edit(id)
            );
            CREATE INDEX held_file_on_edit_id ON held_file(edit_id);
            CREATE INDEX capture_on_photo_count_captured_utc_id ON capture(photo_count, captured_utc, id);
            CREATE INDEX photo_on_capture_id_file_time ON photo(capture_id) WHERE time_source = 'file-time';
            """)
    }
}
