import Foundation

extension Catalogue {
    /// Makes one correction in one transaction: reads the captures `captureIds` name as they are now,
    /// asks `decide` what they become, writes that, and records it as an edit. Returns the edit.
    ///
    /// `decide` runs inside the transaction, on the values read in it, so a commit of `ingest watch`
    /// cannot slip in between; whatever it throws leaves the catalogue as it was. The files of photos
    /// the plan removes stay in the library, held by the edit (`heldFilePaths()`). Throws
    /// `EditError.unknownCapture` when an id names no capture.
    package func applyEdit(to captureIds: [String], origin: String, madeAt: String,
                          _ decide: ([CaptureSnapshot]) throws -> EditPlan) throws -> Edit {
        try write { db in
            let before = try Self.snapshots(of: captureIds, db)
            let plan = try decide(before)
            let held = try Self.write(plan.after, replacing: before, restoring: false, db)
            return try Self.record(plan, before: before, held: held, origin: origin, madeAt: madeAt, undoes: nil, db)
        }
    }

    /// Reverts an edit — `editId`, or the latest correction that stands (not an undo: undoing again
    /// goes further back) — in one transaction, and records the undo as an edit of its own (undoing
    /// that one, by its number, makes the edit again). Returns the undo.
    ///
    /// Refused (`EditError`) when the edit was undone already, when its deleted captures' files were
    /// purged, when a capture it touched is not as it left it (a later edit changed it: undo that
    /// first), or when a photo it deleted is catalogued again.
    package func undoEdit(id editId: Int64?, origin: String, madeAt: String) throws -> Edit {
        try write { db in
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
            try db.execute("UPDATE edit SET undone_by = ? WHERE id = ?", [undo.id.sqlValue, edit.id.sqlValue])
            return undo
        }
    }

    /// The edit to undo: the given one, or the latest not undone; refused when it cannot be.
    private static func standingEdit(_ id: Int64?, _ db: any SQLConnection) throws -> Edit {
        let found: Edit?
        if let id {
            found = try fetchEdits(db, "SELECT * FROM edit WHERE id = ?" + db.dialect.lockingRead, [id.sqlValue]).first
            guard found != nil else { throw EditError.unknownEdit(id) }
        } else {
            // Undos are left out: undoing again goes on back through the corrections, not forth.
            found = try fetchEdits(db, """
                SELECT * FROM edit WHERE undone_by IS NULL AND kind <> 'undo' ORDER BY id DESC LIMIT 1
                """ + db.dialect.lockingRead, []).first
            guard found != nil else { throw EditError.nothingToUndo }
        }
        let edit = found!
        if let by = edit.undoneBy { throw EditError.alreadyUndone(edit: edit.id, by: by) }
        if edit.purgedAt != nil { throw EditError.purged(edit: edit.id) }
        return edit
    }

    /// The captures `edit` touched as they are now, checked against how it left them.
    private static func currentState(of edit: Edit, _ db: any SQLConnection) throws -> (snapshots: [CaptureSnapshot], photoIds: Set<String>) {
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
                let later = try db.scalar(Int64.self, """
                    SELECT max(edit_id) FROM edit_capture WHERE capture_id = ? AND edit_id > ?
                    """, [id.sqlValue, edit.id.sqlValue])
                throw EditError.changedSince(edit: edit.id, capture: id, later: later)
            }
            if let now { snapshots.append(now) }
        }
        return (snapshots, Set(snapshots.flatMap { $0.photos.map(\.id) }))
    }

    /// Refuses to bring back a photo whose bytes or library name another photo row now has.
    private static func checkRestorable(_ photo: Photo, of edit: Edit, _ db: any SQLConnection) throws {
        var clash: (capture: String, sameBytes: Bool)?
        try db.query("""
            SELECT capture_id, CASE WHEN sha256 = ? THEN 1 ELSE 0 END FROM photo
            WHERE sha256 = ? OR original_path = ? OR id = ? LIMIT 1
            """, [photo.sha256.sqlValue, photo.sha256.sqlValue, photo.originalPath.sqlValue, photo.id.sqlValue]) { row in
            let capture: String = row[0]
            let sameBytes: Int = row[1]
            clash = (capture, sameBytes == 1)
        }
        guard let clash else { return }
        let capture = clash.capture
        let what = clash.sameBytes ? "is catalogued again" : "has its file name taken"
        throw EditError.cannotRestore(edit: edit.id, photo: photo.id, reason: "\(what), in capture \(capture.prefix(8))")
    }

    /// The captures `ids` name, in that order, each once; throws for an id that names none.
    static func snapshots(of ids: [String], _ db: any SQLConnection) throws -> [CaptureSnapshot] {
        var seen = Set<String>()
        return try ids.filter { seen.insert($0).inserted }.map { id in
            guard let found = try snapshot(of: id, db) else { throw EditError.unknownCapture(id) }
            return found
        }
    }

    /// One capture with its photos by position and their hits; nil when no capture has `id`.
    static func snapshot(of id: String, _ db: any SQLConnection) throws -> CaptureSnapshot? {
        // Locked until the edit commits (PostgreSQL; SQLite's write locks the database): two workers'
        // edits of one capture run one after the other, the second on what the first left.
        let sql = "SELECT * FROM capture WHERE id = ?" + db.dialect.lockingRead
        guard let capture = try db.fetchOne(Capture.self, sql, [id.sqlValue]) else { return nil }
        let photos = try db.fetchAll(Photo.self, "SELECT * FROM photo WHERE capture_id = ? ORDER BY position", [id.sqlValue])
        let hits = photos.isEmpty ? [] : try db.fetchAll(BarcodeHit.self, """
            SELECT * FROM barcode_hit WHERE photo_id IN (\(placeholders(photos.count))) ORDER BY id
            """, photos.map(\.id.sqlValue))
        let texts = try Catalogue.texts(ofPhotos: photos.map(\.id), db)
        return CaptureSnapshot(capture: capture, photos: photos, hits: hits, texts: photos.compactMap { texts[$0.id] })
    }
}
