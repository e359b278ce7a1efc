import Foundation

extension Catalogue {
    /// Up to `limit` photos whose text is still to be read, by id after `after`: those never read,
    /// and with `redo` also those read (or given up) in other `languages` than these; with `runId`,
    /// only the photos of that run's captures.
    package func photosWithoutText(languages: String, redo: Bool, runId: Int64? = nil, after: String?,
                                   limit: Int) throws -> [Photo] {
        let (condition, arguments) = Self.withoutText(languages: languages, redo: redo, runId: runId)
        return try read { db in
            try db.fetchAll(Photo.self, "SELECT p.* \(condition) AND p.id > ? ORDER BY p.id LIMIT ?",
                            arguments + [(after ?? "").sqlValue, limit.sqlValue])
        }
    }

    /// How many photos `photosWithoutText` would give in all.
    package func countPhotosWithoutText(languages: String, redo: Bool, runId: Int64? = nil) throws -> Int {
        let (condition, arguments) = Self.withoutText(languages: languages, redo: redo, runId: runId)
        return try read { db in try db.scalar(Int.self, "SELECT count(*) \(condition)", arguments) ?? 0 }
    }

    /// The `FROM … WHERE …` of the photos still to be read, and its arguments.
    private static func withoutText(languages: String, redo: Bool, runId: Int64?) -> (String, [SQLValue]) {
        let run = runId == nil ? "" : " JOIN capture c ON c.id = p.capture_id AND c.run_id = ?"
        let sql = """
            FROM photo p\(run) LEFT JOIN photo_text t ON t.photo_id = p.id
            WHERE (t.photo_id IS NULL\(redo ? " OR t.languages <> ?" : ""))
            """
        return (sql, (runId.map { [$0.sqlValue] } ?? []) + (redo ? [languages.sqlValue] : []))
    }

    /// Stores `text` in place of whatever the photo had, in one transaction. Returns false, storing
    /// nothing, when the photo is no longer catalogued (deleted while it was read).
    @discardableResult
    package func recordText(_ text: PhotoText) throws -> Bool {
        try write { db in
            guard try db.scalar(Int.self, "SELECT count(*) FROM photo WHERE id = ?", [text.photoId.sqlValue]) == 1 else { return false }
            try Self.insert(text, db)
            return true
        }
    }

    /// Stores `text` in place of whatever its photo had (the photo's row exists).
    static func insert(_ text: PhotoText, _ db: any SQLConnection) throws {
        // The words too, though the cascade removes them: a client without foreign keys on (SQLite's
        // own shell) may have removed the text alone.
        _ = try db.execute("DELETE FROM photo_word WHERE photo_id = ?", [text.photoId.sqlValue])
        _ = try db.execute("DELETE FROM photo_text WHERE photo_id = ?", [text.photoId.sqlValue])
        _ = try db.execute("""
            INSERT INTO photo_text (photo_id, state, reason, languages, quarter_turns, text, headline, nutrition, seconds, read_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [text.photoId.sqlValue, text.state.rawValue.sqlValue, text.reason.sqlValue, text.languages.sqlValue,
                  text.quarterTurns.sqlValue, text.text.sqlValue, text.headline.sqlValue,
                  try text.nutrition.map(json).sqlValue, text.seconds.sqlValue, text.readAt.sqlValue])
        // Many rows a statement: a page of small print is hundreds of words, one round trip each
        // to a PostgreSQL server otherwise.
        let perStatement = 100
        for start in stride(from: 0, to: text.words.count, by: perStatement) {
            let words = text.words[start..<min(start + perStatement, text.words.count)]
            var arguments: [SQLValue] = []
            for (offset, word) in zip(words.indices, words) {
                arguments += [text.photoId.sqlValue, offset.sqlValue, word.text.sqlValue, word.line.sqlValue, word.block.sqlValue,
                              word.x.sqlValue, word.y.sqlValue, word.width.sqlValue, word.height.sqlValue,
                              word.confidence.sqlValue]
            }
            let rows = Array(repeating: "(\(placeholders(10)))", count: words.count).joined(separator: ", ")
            _ = try db.execute("""
                INSERT INTO photo_word (photo_id, position, text, line, block, x, y, width, height, confidence) VALUES \(rows)
                """, arguments)
        }
    }

    /// The stored text of each of `photoIds` that has any, by photo id.
    package func texts(ofPhotos photoIds: [String]) throws -> [String: PhotoText] {
        guard !photoIds.isEmpty else { return [:] }
        return try read { db in try Self.texts(ofPhotos: photoIds, db) }
    }

    /// `texts(ofPhotos:)` in `db`'s transaction.
    static func texts(ofPhotos photoIds: [String], _ db: any SQLConnection) throws -> [String: PhotoText] {
        guard !photoIds.isEmpty else { return [:] }
        var texts: [String: PhotoText] = [:]
        let list = placeholders(photoIds.count)
        let ids = photoIds.map(\.sqlValue)
        try db.query("""
            SELECT photo_id, state, reason, languages, quarter_turns, seconds, read_at, headline, nutrition
            FROM photo_text WHERE photo_id IN (\(list))
            """, ids) { row in
            let id: String = row[0]
            texts[id] = PhotoText(photoId: id, state: PhotoText.State(rawValue: row[1]) ?? .givenUp, reason: row[2],
                                  languages: row[3], quarterTurns: row[4], headline: row[7],
                                  nutrition: (row[8] as String?).flatMap(nutrition), seconds: row[5], readAt: row[6])
        }
        try db.query("""
            SELECT photo_id, text, line, block, x, y, width, height, confidence FROM photo_word
            WHERE photo_id IN (\(list)) ORDER BY photo_id, position
            """, ids) { row in
            let id: String = row[0]
            texts[id]?.words.append(PhotoText.Word(text: row[1], line: row[2], block: row[3], x: row[4], y: row[5],
                                                   width: row[6], height: row[7], confidence: row[8]))
        }
        return texts
    }

    /// What the package's photos say of each of `captureIds` that they say anything of: the
    /// headline of its first photo (in capture order) that has one and is not a nutrition table,
    /// and the first nutrition table read, with the photo each comes from.
    package func packageText(ofCaptures captureIds: [String]) throws -> [String: PackageText] {
        guard !captureIds.isEmpty else { return [:] }
        return try read { db in
            var found: [String: PackageText] = [:]
            try db.query("""
                SELECT p.capture_id, p.id, t.headline, t.nutrition FROM photo p JOIN photo_text t ON t.photo_id = p.id
                WHERE p.capture_id IN (\(placeholders(captureIds.count))) AND (t.headline IS NOT NULL OR t.nutrition IS NOT NULL)
                ORDER BY p.capture_id, p.position
                """, captureIds.map(\.sqlValue)) { row in
                let (captureId, photoId): (String, String) = (row[0], row[1])
                var facts = found[captureId] ?? PackageText()
                if let nutrition = (row[3] as String?).flatMap(Self.nutrition) {
                    if facts.nutrition == nil { (facts.nutrition, facts.nutritionPhotoId) = (nutrition, photoId) }
                } else if facts.name == nil, let headline = row[2] as String? {
                    (facts.name, facts.namePhotoId) = (headline, photoId)
                }
                found[captureId] = facts
            }
            return found
        }
    }

    static func json(_ nutrition: LabelNutrition) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(nutrition), as: UTF8.self)
    }

    static func nutrition(_ json: String) -> LabelNutrition? {
        try? JSONDecoder().decode(LabelNutrition.self, from: Data(json.utf8))
    }
}

/// What a capture's photos say of its product: a name from the package (its most prominent
/// print) and the nutrition table read, each with the photo it comes from.
package struct PackageText: Sendable, Equatable {
    package var name: String?
    package var namePhotoId: String?
    package var nutrition: LabelNutrition?
    package var nutritionPhotoId: String?

    package init() {}
}
