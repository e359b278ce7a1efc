import Foundation
import GRDB

extension Catalogue {
    /// Makes one correction in one transaction: reads the captures `captureIds` name as they are now,
    /// asks `decide` what they become, writes that, and records it as an edit. Returns the edit.
    ///
    /// `decide` runs inside the transaction, on the values read in it, so a commit of `ingest watch`
    /// cannot slip in between; whatever it throws leaves the catalogue as it was. The files of photos
    /// the plan removes stay in the library, held by the edit (`heldFilePaths()`). Throws
    /// `EditError.unknownCapture` when an id names no capture.
    public func applyEdit(to captureIds: [String], origin: String, madeAt: String,
                          _ decide: ([CaptureSnapshot]) throws -> EditPlan) throws -> Edit {
        try mappingStorageErrors {
            try writer.write { db in
                let before = try Self.snapshots(of: captureIds, db)
                let plan = try decide(before)
                let held = try Self.write(plan.after, replacing: before, restoring: false, db)
                return try Self.record(plan, before: before, held: held, origin: origin, madeAt: madeAt, undoes: nil, db)
            }
        }
    }

    /// Reverts an edit — `editId`, or the latest correction that stands (not an undo: undoing again
    /// goes further back) — in one transaction, and records the undo as an edit of its own (undoing
    /// that one, by its number, makes the edit again). Returns the undo.
    ///
    /// Refused (`EditError`) when the edit was undone already, when its deleted captures' files were
    /// purged, when a capture it touched is not as it left it (a later edit changed it: undo that
    /// first), or when a photo it deleted is catalogued again.
    public func undoEdit(id editId: Int64?, origin: String, madeAt: String) throws -> Edit {
        try mappingStorageErrors {
            try writer.write { db in
                let edit = try Self.standingEdit(editId, db)
                let current = try Self.currentState(of: edit, db)
                for snapshot in edit.before where !edit.after.contains(where: { $0.capture.id == snapshot.capture.id }) {
                    for photo in snapshot.photos where !current.photoIds.contains(photo.id) {
                        try Self.checkRestorable(photo, of: edit, db)
                    }
                }
                let plan = EditPlan(kind: .undo, summary: "undid #\(edit.id): \(edit.summary)", after: edit.before)
                let held = try Self.write(plan.after, replacing: current.snapshots, restoring: true, db)
                let undo = try Self.record(plan, before: current.snapshots, held: held, origin: origin, madeAt: madeAt,
                                           undoes: edit.id, db)
                try db.execute(sql: "UPDATE edit SET undone_by = ? WHERE id = ?", arguments: [undo.id, edit.id])
                return undo
            }
        }
    }

    /// The edit to undo: the given one, or the latest not undone; refused when it cannot be.
    private static func standingEdit(_ id: Int64?, _ db: Database) throws -> Edit {
        let row: Row?
        if let id {
            row = try Row.fetchOne(db, sql: "SELECT * FROM edit WHERE id = ?", arguments: [id])
            guard row != nil else { throw EditError.unknownEdit(id) }
        } else {
            // Undos are left out: undoing again goes on back through the corrections, not forth.
            row = try Row.fetchOne(db, sql: """
                SELECT * FROM edit WHERE undone_by IS NULL AND kind <> 'undo' ORDER BY id DESC LIMIT 1
                """)
            guard row != nil else { throw EditError.nothingToUndo }
        }
        let edit = try Edit(row: row!)
        if let by = edit.undoneBy { throw EditError.alreadyUndone(edit: edit.id, by: by) }
        if edit.purgedAt != nil { throw EditError.purged(edit: edit.id) }
        return edit
    }

    /// The captures `edit` touched as they are now, checked against how it left them.
    private static func currentState(of edit: Edit, _ db: Database) throws -> (snapshots: [CaptureSnapshot], photoIds: Set<String>) {
        var snapshots: [CaptureSnapshot] = []
        for id in edit.captureIds {
            let now = try snapshot(of: id, db)
            let left = edit.after.first { $0.capture.id == id }
            let asLeft = switch (now, left) {
            case let (now?, left?): now.hasSameLayout(as: left)
            case (nil, nil): true
            default: false
            }
            guard asLeft else {
                let later = try Int64.fetchOne(db, sql: """
                    SELECT max(edit_id) FROM edit_capture WHERE capture_id = ? AND edit_id > ?
                    """, arguments: [id, edit.id])
                throw EditError.changedSince(edit: edit.id, capture: id, later: later)
            }
            if let now { snapshots.append(now) }
        }
        return (snapshots, Set(snapshots.flatMap { $0.photos.map(\.id) }))
    }

    /// Refuses to bring back a photo whose bytes or library name another photo row now has.
    private static func checkRestorable(_ photo: Photo, of edit: Edit, _ db: Database) throws {
        let clash = try Row.fetchOne(db, sql: """
            SELECT capture_id, sha256 = ? AS same_bytes FROM photo WHERE sha256 = ? OR original_path = ? OR id = ?
            """, arguments: [photo.sha256, photo.sha256, photo.originalPath, photo.id])
        guard let clash else { return }
        let capture: String = clash["capture_id"]
        let what = (clash["same_bytes"] as Bool?) == true ? "is catalogued again" : "has its file name taken"
        throw EditError.cannotRestore(edit: edit.id, photo: photo.id, reason: "\(what), in capture \(capture.prefix(8))")
    }

    /// The captures `ids` name, in that order, each once; throws for an id that names none.
    static func snapshots(of ids: [String], _ db: Database) throws -> [CaptureSnapshot] {
        var seen = Set<String>()
        return try ids.filter { seen.insert($0).inserted }.map { id in
            guard let found = try snapshot(of: id, db) else { throw EditError.unknownCapture(id) }
            return found
        }
    }

    /// One capture with its photos by position and their hits; nil when no capture has `id`.
    static func snapshot(of id: String, _ db: Database) throws -> CaptureSnapshot? {
        guard let capture = try Capture.fetchOne(db, key: id) else { return nil }
        let photos = try Photo.filter(Photo.QueryColumns.captureId == id).order(Photo.QueryColumns.position).fetchAll(db)
        let hits = try BarcodeHit.filter(photos.map(\.id).contains(BarcodeHit.QueryColumns.photoId))
            .order(BarcodeHit.QueryColumns.id).fetchAll(db)
        return CaptureSnapshot(capture: capture, photos: photos, hits: hits)
    }
}
