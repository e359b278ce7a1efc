import Foundation
import GRDB

extension Catalogue {
    /// Edits newest first: at most `limit`, made before edit `before` when given.
    public func edits(limit: Int, before: Int64? = nil) throws -> [Edit] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM edit WHERE id < ? ORDER BY id DESC LIMIT ?",
                             arguments: [before ?? Int64.max, limit]).map(Edit.init(row:))
        }
    }

    /// One edit; nil when no edit has `id`.
    public func edit(id: Int64) throws -> Edit? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM edit WHERE id = ?", arguments: [id]).map(Edit.init(row:)) }
    }

    /// The edits that touched capture `id`, newest first, at most `limit`.
    public func edits(ofCapture id: String, limit: Int) throws -> [Edit] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT edit.* FROM edit_capture JOIN edit ON edit.id = edit_capture.edit_id
                WHERE edit_capture.capture_id = ? ORDER BY edit.id DESC LIMIT ?
                """, arguments: [id, limit]).map(Edit.init(row:))
        }
    }

    /// The library paths (relative) of deleted captures' files, kept so that their delete can be
    /// undone: no photo row names them, yet they belong to the catalogue (`ingest verify`).
    public func heldFilePaths() throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT path FROM held_file")) }
    }

    /// Lets go of the files held by edits made before `madeBefore` (ISO 8601 UTC; nil: all), in one
    /// transaction: those edits can no longer be undone (`purgedAt`). Returns the paths, which the
    /// caller then removes from the library; a crash before it does leaves files no row references,
    /// which `ingest verify --repair` sets aside.
    public func releaseHeldFiles(madeBefore: String?, purgedAt: String) throws -> [String] {
        try mappingStorageErrors {
            try writer.write { db in
                let cutoff = madeBefore ?? "9999"
                let paths = try String.fetchAll(db, sql: """
                    SELECT held_file.path FROM held_file JOIN edit ON edit.id = held_file.edit_id
                    WHERE edit.made_at < ? ORDER BY held_file.path
                    """, arguments: [cutoff])
                try db.execute(sql: """
                    UPDATE edit SET purged_at = ?
                    WHERE id IN (SELECT edit_id FROM held_file) AND made_at < ?
                    """, arguments: [purgedAt, cutoff])
                try db.execute(sql: "DELETE FROM held_file WHERE edit_id IN (SELECT id FROM edit WHERE made_at < ?)",
                               arguments: [cutoff])
                return paths
            }
        }
    }
}

extension Edit {
    /// An `edit` row, its states decoded from JSON.
    init(row: Row) throws {
        let decoder = JSONDecoder()
        let kind: String = row["kind"]
        guard let known = EditKind(rawValue: kind) else { throw EditError.invalidPlan("unknown edit kind \(kind)") }
        self.init(id: row["id"], kind: known, madeAt: row["made_at"], origin: row["origin"], summary: row["summary"],
                  before: try decoder.decode([CaptureSnapshot].self, from: Data((row["before_state"] as String).utf8)),
                  after: try decoder.decode([CaptureSnapshot].self, from: Data((row["after_state"] as String).utf8)),
                  undoes: row["undoes"], undoneBy: row["undone_by"], purgedAt: row["purged_at"])
    }
}
