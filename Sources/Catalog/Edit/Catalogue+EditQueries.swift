import Foundation

extension Catalogue {
    /// Edits newest first: at most `limit`, made before edit `before` when given.
    package func edits(limit: Int, before: Int64? = nil) throws -> [Edit] {
        try read { db in
            try Self.fetchEdits(db, "SELECT * FROM edit WHERE id < ? ORDER BY id DESC LIMIT ?",
                                [(before ?? Int64.max).sqlValue, limit.sqlValue])
        }
    }

    /// One edit; nil when no edit has `id`.
    package func edit(id: Int64) throws -> Edit? {
        try read { db in try Self.fetchEdits(db, "SELECT * FROM edit WHERE id = ?", [id.sqlValue]).first }
    }

    /// The edits that touched capture `id`, newest first, at most `limit`.
    package func edits(ofCapture id: String, limit: Int) throws -> [Edit] {
        try read { db in
            try Self.fetchEdits(db, """
                SELECT edit.* FROM edit_capture JOIN edit ON edit.id = edit_capture.edit_id
                WHERE edit_capture.capture_id = ? ORDER BY edit.id DESC LIMIT ?
                """, [id.sqlValue, limit.sqlValue])
        }
    }

    /// The library paths (relative) of deleted captures' files, kept so that their delete can be
    /// undone: no photo row names them, yet they belong to the catalogue (`ingest verify`).
    package func heldFilePaths() throws -> Set<String> {
        try read { db in Set(try db.column(String.self, "SELECT path FROM held_file")) }
    }

    /// Lets go of the files held by the oldest `edits` edits made before `madeBefore` (ISO 8601 UTC;
    /// nil: all) that still hold files, in one transaction: those edits can no longer be undone
    /// (`purgedAt`). Returns the paths, which the caller then removes from the library, and calls
    /// again until none are left: memory holds one batch of edits' files however many were
    /// deleted. A crash before the files are removed leaves files no row references, which
    /// `ingest verify --repair` sets aside.
    package func releaseHeldFiles(madeBefore: String?, purgedAt: String, edits: Int = 1000) throws -> [String] {
        try write { db in
            let cutoff = (madeBefore ?? "9999").sqlValue
            let chosen = """
                SELECT id FROM edit WHERE made_at < ? AND id IN (SELECT edit_id FROM held_file) ORDER BY id LIMIT ?
                """
            let paths = try db.column(String.self, """
                SELECT path FROM held_file WHERE edit_id IN (\(chosen)) ORDER BY path
                """, [cutoff, edits.sqlValue])
            try db.execute("UPDATE edit SET purged_at = ? WHERE id IN (\(chosen))", [purgedAt.sqlValue, cutoff, edits.sqlValue])
            try db.execute("DELETE FROM held_file WHERE edit_id IN (\(chosen))", [cutoff, edits.sqlValue])
            return paths
        }
    }

    /// The `edit` rows a query returns, their states decoded from JSON.
    static func fetchEdits(_ db: any SQLConnection, _ sql: String, _ arguments: [SQLValue]) throws -> [Edit] {
        try db.fetchAll(EditRow.self, sql, arguments).map { try $0.edit() }
    }
}

/// An `edit` row as stored: its states JSON text.
private struct EditRow: Decodable {
    var id: Int64
    var kind: String
    var madeAt: String
    var origin: String
    var summary: String
    var beforeState: String
    var afterState: String
    var undoes: Int64?
    var undoneBy: Int64?
    var purgedAt: String?

    func edit() throws -> Edit {
        guard let known = EditKind(rawValue: kind) else { throw EditError.invalidPlan("unknown edit kind \(kind)") }
        let decoder = JSONDecoder()
        return Edit(id: id, kind: known, madeAt: madeAt, origin: origin, summary: summary,
                    before: try decoder.decode([CaptureSnapshot].self, from: Data(beforeState.utf8)),
                    after: try decoder.decode([CaptureSnapshot].self, from: Data(afterState.utf8)),
                    undoes: undoes, undoneBy: undoneBy, purgedAt: purgedAt)
    }
}
