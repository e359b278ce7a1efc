import Foundation
import Vocabulary

/// The kinds of capture most likely to need a person's look, as the review queue lists them.
package enum ReviewReason: String, CaseIterable, Sendable {
    /// No barcode, beside a capture of the same set that has one: a code missed, or a product split in two.
    case noBarcodeBesideOne = "no-barcode-beside-one"
    /// More photos than one product usually takes: perhaps two products in one capture.
    case manyPhotos = "many-photos"
    /// Rated Poor.
    case poor
    /// A photo's time is its file's, not the camera's: the order and grouping may be off.
    case fileTime = "file-time"
    /// The nutrition table read on a photo and the product's data differ
    /// (`LabelNutrition.disagreements(with:)`): a misread label or a wrong dump row.
    case labelDisagrees = "label-disagrees"
}

extension Catalogue {
    /// How many photos make a capture "many" for the review queue.
    package static let manyPhotos = 6

    /// The newest captures (at most `limit`) that `reason` flags, each reason from an index: Poor and
    /// no barcode in newest-first order (a page costs its own rows plus, for `noBarcodeBesideOne`, two
    /// probes of the set's index per capture without barcode looked at); many photos and file times
    /// from indexes of those rows only, which are few, then put in order.
    package func captures(flaggedFor reason: ReviewReason, limit: Int) throws -> [Capture] {
        if reason == .labelDisagrees { return try capturesWhereLabelDisagrees(limit: limit) }
        return try read { db in
            let (sql, arguments) = Self.reviewQuery(reason, limit: limit, db.dialect)
            return try db.fetchAll(Capture.self, sql, arguments)
        }
    }

    /// The newest captures (at most `limit`) whose label and product data disagree. The query
    /// gives the candidates, newest first (captures with a nutrition photo and a product), a page
    /// of `limit` at a time, and the rule (`LabelNutrition.disagreements(with:)`) picks from
    /// them: one rule, in Swift, for both backends.
    private func capturesWhereLabelDisagrees(limit: Int) throws -> [Capture] {
        var flagged: [Capture] = []
        var before: CaptureCursor?
        while flagged.count < limit {
            let page = try read { db in
                let (sql, arguments) = Self.labelCandidates(limit: limit, before: before)
                return try db.fetchAll(Capture.self, sql, arguments)
            }
            let texts = try packageText(ofCaptures: page.map(\.id))
            let products = try products(forGTIN13s: page.compactMap(\.gtin13))
            flagged += page.filter { capture in
                guard let nutrition = texts[capture.id]?.nutrition, let product = capture.gtin13.flatMap({ products[$0] }) else {
                    return false
                }
                return !nutrition.disagreements(with: product).isEmpty
            }
            guard page.count == limit, let last = page.last else { break }
            before = CaptureCursor(last)
        }
        return Array(flagged.prefix(limit))
    }

    /// A page of the captures with a nutrition table read and a product, newest first, older than
    /// `before`: found from the index of the photos with a table (few of all), then put in order.
    static func labelCandidates(limit: Int, before: CaptureCursor?) -> (String, [SQLValue]) {
        let older = before == nil ? "" : "AND (c.captured_utc, c.id) < (?, ?)"
        return ("""
            SELECT c.* FROM capture c
            WHERE c.id IN (SELECT p.capture_id FROM photo_text t JOIN photo p ON p.id = t.photo_id WHERE t.nutrition IS NOT NULL)
                AND EXISTS (SELECT 1 FROM product d WHERE d.gtin14 = '0' || c.gtin13) \(older)
            ORDER BY c.captured_utc DESC, c.id DESC LIMIT ?
            """, (before.map { [$0.capturedUTC.sqlValue, $0.id.sqlValue] } ?? []) + [limit.sqlValue])
    }

    /// The SQL of `captures(flaggedFor:limit:)` and its arguments.
    static func reviewQuery(_ reason: ReviewReason, limit: Int, _ dialect: SQLDialect) -> (String, [SQLValue]) {
        switch reason {
        case .noBarcodeBesideOne:
            return ("""
                SELECT c.* FROM capture c
                WHERE c.barcode IS NULL AND (
                    (SELECT p.barcode FROM capture p WHERE p.set_name = c.set_name
                        AND (p.captured_utc, p.id) < (c.captured_utc, c.id)
                        ORDER BY p.captured_utc DESC, p.id DESC LIMIT 1) IS NOT NULL
                    OR (SELECT n.barcode FROM capture n WHERE n.set_name = c.set_name
                        AND (n.captured_utc, n.id) > (c.captured_utc, c.id)
                        ORDER BY n.captured_utc, n.id LIMIT 1) IS NOT NULL)
                ORDER BY c.captured_utc DESC, c.id DESC LIMIT ?
                """, [limit.sqlValue])
        case .manyPhotos:
            // `+`: not the time index for the order (it would read every capture to find the few
            // with many photos) but the photo-count index for the rows, then their order.
            return ("""
                SELECT * FROM capture WHERE photo_count >= ?
                ORDER BY \(dialect.notIndexed("captured_utc")) DESC, \(dialect.notIndexed("id")) DESC LIMIT ?
                """, [Self.manyPhotos.sqlValue, limit.sqlValue])
        case .poor:
            return ("SELECT * FROM capture WHERE rating = ? ORDER BY captured_utc DESC, id DESC LIMIT ?",
                    [Rating.poor.rawValue.sqlValue, limit.sqlValue])
        case .fileTime:
            // The literal, not a parameter: only then may SQLite use the partial index of those photos.
            return ("""
                SELECT * FROM capture WHERE id IN (SELECT capture_id FROM photo WHERE time_source = 'file-time')
                ORDER BY captured_utc DESC, id DESC LIMIT ?
                """, [limit.sqlValue])
        case .labelDisagrees:
            return labelCandidates(limit: limit, before: nil)
        }
    }

    /// The first photo (position 0) of each capture of `ids`, keyed by capture id: a page's thumbnails
    /// in one read.
    package func firstPhotos(ofCaptures ids: [String]) throws -> [String: Photo] {
        try read { db in
            var found: [String: Photo] = [:]
            for start in stride(from: 0, to: ids.count, by: Self.hashChunkSize) {
                let chunk = ids[start ..< min(start + Self.hashChunkSize, ids.count)]
                try db.forEach(Photo.self, """
                    SELECT * FROM photo WHERE capture_id IN (\(placeholders(chunk.count))) AND position = 0
                    """, chunk.map(\.sqlValue)) { found[$0.captureId] = $0 }
            }
            return found
        }
    }

    /// Every barcode hit of the photos `ids`, keyed by photo id, in the order they were stored: a
    /// capture's hits in one read.
    package func hits(ofPhotos ids: [String]) throws -> [String: [BarcodeHit]] {
        try read { db in
            var found: [String: [BarcodeHit]] = [:]
            for start in stride(from: 0, to: ids.count, by: Self.hashChunkSize) {
                let chunk = ids[start ..< min(start + Self.hashChunkSize, ids.count)]
                try db.forEach(BarcodeHit.self, """
                    SELECT * FROM barcode_hit WHERE photo_id IN (\(placeholders(chunk.count))) ORDER BY id
                    """, chunk.map(\.sqlValue)) { found[$0.photoId, default: []].append($0) }
            }
            return found
        }
    }

    /// The hits of the photos of each capture of `ids`, keyed by capture id, in the order of its
    /// photos and their hits: a page of captures' hits in one read per chunk.
    package func hits(ofCaptures ids: [String]) throws -> [String: [BarcodeHit]] {
        try read { db in
            var found: [String: [BarcodeHit]] = [:]
            for start in stride(from: 0, to: ids.count, by: Self.hashChunkSize) {
                let chunk = ids[start ..< min(start + Self.hashChunkSize, ids.count)]
                var captureOf: [String: String] = [:]
                try db.query("SELECT id, capture_id FROM photo WHERE capture_id IN (\(placeholders(chunk.count)))",
                             chunk.map(\.sqlValue)) { row in captureOf[row[0]] = row[1] }
                try db.forEach(BarcodeHit.self, """
                    SELECT h.* FROM barcode_hit h JOIN photo p ON p.id = h.photo_id
                    WHERE p.capture_id IN (\(placeholders(chunk.count))) ORDER BY p.position, h.id
                    """, chunk.map(\.sqlValue)) { hit in
                    if let capture = captureOf[hit.photoId] { found[capture, default: []].append(hit) }
                }
            }
            return found
        }
    }

    /// The photo with this id; nil when there is none.
    package func photo(id: String) throws -> Photo? {
        try read { db in try db.fetchOne(Photo.self, "SELECT * FROM photo WHERE id = ?", [id.sqlValue]) }
    }

    /// The photo whose thumbnail is at `thumbPath` (relative to the library); nil when there is none.
    package func photo(thumbPath: String) throws -> Photo? {
        try read { db in try db.fetchOne(Photo.self, "SELECT * FROM photo WHERE thumb_path = ?", [thumbPath.sqlValue]) }
    }

    /// The one photo whose id starts with `idPrefix` (case-insensitive), as `capture(idPrefix:)`
    /// looks up captures; throws `EditError.ambiguousPhoto` when several do.
    package func photo(idPrefix: String) throws -> Photo? {
        guard idPrefix.count >= Self.minimumIdPrefixLength else { return nil }
        let prefix = idPrefix.lowercased()
        let matches = try read { db in
            try db.fetchAll(Photo.self, "SELECT * FROM photo WHERE id >= ? AND id < ? ORDER BY id LIMIT 2",
                            [prefix.sqlValue, (prefix + "\u{10FFFF}").sqlValue])
        }
        guard matches.count <= 1 else { throw EditError.ambiguousPhoto(idPrefix) }
        return matches.first
    }
}

extension Catalogue {
    /// The capture with this (whole) id; nil when there is none.
    package func capture(id: String) throws -> Capture? {
        try read { db in try db.fetchOne(Capture.self, "SELECT * FROM capture WHERE id = ?", [id.sqlValue]) }
    }
}
