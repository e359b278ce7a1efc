import Foundation

extension Catalogue {
    /// A position no capture reaches, above which photos wait while they change places: the
    /// unique index on (capture, position) holds after every statement, not only at the end.
    private static let parkedPosition = 1_000_000

    /// Writes `after` over `before` (the same captures as read in this transaction): captures
    /// inserted or updated, photos moved, captures and photos of `before` missing from `after`
    /// removed, their files held; with `restoring` (an undo), photos of `after` not in `before` are
    /// inserted again with their hits and their files released. Returns the files to hold and release.
    static func write(_ after: [CaptureSnapshot], replacing before: [CaptureSnapshot], restoring: Bool,
                      _ db: any SQLConnection) throws -> Held {
        let plan = try EditWritePlan(after: after, before: before, restoring: restoring)
        for snapshot in after where !plan.kept.contains(snapshot.capture.id) {
            guard try db.scalar(Int.self, "SELECT count(*) FROM capture WHERE id = ?", [snapshot.capture.id.sqlValue]) == 0 else {
                throw EditError.invalidPlan("capture \(snapshot.capture.id) exists already")
            }
        }
        for snapshot in after { try db.upsert(snapshot.capture, key: "id") }
        var held = Held()
        // Removed photos go first, so that no photo waits for a place one of them holds.
        for photo in before.flatMap(\.photos) where plan.removed.contains(photo.id) {
            try db.execute("DELETE FROM photo WHERE id = ?", [photo.id.sqlValue])
            held.paths += [photo.originalPath, photo.thumbPath]
        }
        for (index, id) in plan.moving.enumerated() {
            try db.execute("UPDATE photo SET position = ? WHERE id = ?", [(parkedPosition + index).sqlValue, id.sqlValue])
        }
        let moving = Set(plan.moving)
        for snapshot in after {
            for photo in snapshot.photos where moving.contains(photo.id) {
                try db.execute("UPDATE photo SET capture_id = ?, position = ? WHERE id = ?",
                               [snapshot.capture.id.sqlValue, photo.position.sqlValue, photo.id.sqlValue])
            }
            for photo in snapshot.photos where plan.restored.contains(photo.id) {
                try db.insert(photo)
                for hit in snapshot.hits where hit.photoId == photo.id { try db.insertKeepingId(hit) }
                for text in snapshot.texts where text.photoId == photo.id { try insert(text, db) }
                held.released += [photo.originalPath, photo.thumbPath]
            }
            if let context = snapshot.capture.contextPath { held.released.append(context) }
        }
        for snapshot in before where !plan.kept.contains(snapshot.capture.id) {
            try db.execute("DELETE FROM capture WHERE id = ?", [snapshot.capture.id.sqlValue])
            if let context = snapshot.capture.contextPath, try !isContextUsed(context, db) { held.paths.append(context) }
        }
        return held
    }

    /// Whether a capture still keeps its set's `capture.json` at `path`.
    private static func isContextUsed(_ path: String, _ db: any SQLConnection) throws -> Bool {
        try db.scalar(Int.self, "SELECT count(*) FROM capture WHERE context_path = ?", [path.sqlValue]) ?? 0 > 0
    }

    /// Library files an edit takes out of the catalogue, kept for its undo, and those an undo gives back.
    struct Held {
        var paths: [String] = []
        var released: [String] = []
    }

    /// Stores the edit with the captures it touched, holds or releases files, and returns it.
    static func record(_ plan: EditPlan, before: [CaptureSnapshot], held: Held, origin: String, madeAt: String,
                       undoes: Int64?, _ db: any SQLConnection) throws -> Edit {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let id = try db.scalar(Int64.self, """
            INSERT INTO edit (kind, made_at, origin, summary, before_state, after_state, undoes)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [plan.kind.rawValue.sqlValue, madeAt.sqlValue, origin.sqlValue, plan.summary.sqlValue,
                  String(decoding: try encoder.encode(before), as: UTF8.self).sqlValue,
                  String(decoding: try encoder.encode(plan.after), as: UTF8.self).sqlValue, undoes.sqlValue])
        guard let id else { throw EditError.invalidPlan("the edit was stored without an id") }
        let edit = Edit(id: id, kind: plan.kind, madeAt: madeAt, origin: origin, summary: plan.summary,
                        before: before, after: plan.after, undoes: undoes)
        for id in edit.captureIds {
            try db.execute("INSERT INTO edit_capture (capture_id, edit_id) VALUES (?, ?)", [id.sqlValue, edit.id.sqlValue])
        }
        for path in held.released {
            try db.execute("DELETE FROM held_file WHERE path = ?", [path.sqlValue])
        }
        for path in held.paths {
            try db.execute("""
                INSERT INTO held_file (path, edit_id) VALUES (?, ?)
                ON CONFLICT (path) DO UPDATE SET edit_id = excluded.edit_id
                """, [path.sqlValue, edit.id.sqlValue])
        }
        return edit
    }
}

/// Which photos and captures an edit's write moves, removes, keeps or brings back; checked first, so
/// that a plan that does not fit its captures is refused before anything is written.
struct EditWritePlan {
    /// Photos that stay catalogued but change capture or position.
    var moving: [String] = []
    /// Photos of `before` no capture of `after` holds.
    var removed: Set<String> = []
    /// Photos of `after` that `before` did not have (an undo of a delete).
    var restored: Set<String> = []
    /// Captures of `before` that `after` keeps.
    var kept: Set<String> = []

    init(after: [CaptureSnapshot], before: [CaptureSnapshot], restoring: Bool) throws {
        var was: [String: (capture: String, position: Int)] = [:]
        for snapshot in before {
            for photo in snapshot.photos { was[photo.id] = (snapshot.capture.id, photo.position) }
        }
        var seen = Set<String>()
        var captures = Set<String>()
        for snapshot in after {
            guard captures.insert(snapshot.capture.id).inserted else { throw EditError.invalidPlan("capture \(snapshot.capture.id) twice") }
            guard !snapshot.photos.isEmpty, snapshot.capture.photoCount == snapshot.photos.count else {
                throw EditError.invalidPlan("capture \(snapshot.capture.id) with \(snapshot.photos.count) photos, counted \(snapshot.capture.photoCount)")
            }
            for (index, photo) in snapshot.photos.enumerated() {
                guard photo.position == index, photo.captureId == snapshot.capture.id, seen.insert(photo.id).inserted else {
                    throw EditError.invalidPlan("photo \(photo.id) misplaced")
                }
                if let old = was[photo.id] {
                    if old != (snapshot.capture.id, index) { moving.append(photo.id) }
                } else if restoring {
                    restored.insert(photo.id)
                } else {
                    throw EditError.invalidPlan("photo \(photo.id) is not one of the captures'")
                }
            }
        }
        removed = Set(was.keys).subtracting(seen)
        kept = Set(before.map(\.capture.id)).intersection(captures)
    }
}
