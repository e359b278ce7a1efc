import Foundation
import GRDB

/// The kinds of capture most likely to need a person's look, as the review queue lists them.
public enum ReviewReason: String, CaseIterable, Sendable {
    /// No barcode, beside a capture of the same set that has one: a code missed, or a product split in two.
    case noBarcodeBesideOne = "no-barcode-beside-one"
    /// More photos than one product usually takes: perhaps two products in one capture.
    case manyPhotos = "many-photos"
    /// Rated Poor.
    case poor
    /// A photo's time is its file's, not the camera's: the order and grouping may be off.
    case fileTime = "file-time"
}

extension Catalogue {
    /// How many photos make a capture "many" for the review queue.
    public static let manyPhotos = 6

    /// The newest captures (at most `limit`) that `reason` flags, each reason from an index: Poor and
    /// no barcode in newest-first order (a page costs its own rows plus, for `noBarcodeBesideOne`, two
    /// probes of the set's index per capture without barcode looked at); many photos and file times
    /// from indexes of those rows only, which are few, then put in order.
    public func captures(flaggedFor reason: ReviewReason, limit: Int) throws -> [Capture] {
        let (sql, arguments) = Self.reviewQuery(reason, limit: limit)
        return try read { db in try Capture.fetchAll(db, sql: sql, arguments: arguments) }
    }

    /// The SQL of `captures(flaggedFor:limit:)` and its arguments.
    static func reviewQuery(_ reason: ReviewReason, limit: Int) -> (String, StatementArguments) {
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
                """, [limit])
        case .manyPhotos:
            // `+`: not the time index for the order (it would read every capture to find the few
            // with many photos) but the photo-count index for the rows, then their order.
            return ("""
                SELECT * FROM capture WHERE photo_count >= ? ORDER BY +captured_utc DESC, +id DESC LIMIT ?
                """, [Self.manyPhotos, limit])
        case .poor:
            return ("SELECT * FROM capture WHERE rating = ? ORDER BY captured_utc DESC, id DESC LIMIT ?",
                    [Rating.poor.rawValue, limit])
        case .fileTime:
            // The literal, not a parameter: only then may SQLite use the partial index of those photos.
            return ("""
                SELECT * FROM capture WHERE id IN (SELECT capture_id FROM photo WHERE time_source = 'file-time')
                ORDER BY captured_utc DESC, id DESC LIMIT ?
                """, [limit])
        }
    }

    /// The first photo (position 0) of each capture of `ids`, keyed by capture id: a page's thumbnails
    /// in one read.
    public func firstPhotos(ofCaptures ids: [String]) throws -> [String: Photo] {
        try read { db in
            var found: [String: Photo] = [:]
            for start in stride(from: 0, to: ids.count, by: Self.hashChunkSize) {
                let chunk = ids[start ..< min(start + Self.hashChunkSize, ids.count)]
                let photos = try Photo.filter(chunk.contains(Photo.QueryColumns.captureId) && Photo.QueryColumns.position == 0)
                    .fetchAll(db)
                for photo in photos { found[photo.captureId] = photo }
            }
            return found
        }
    }

    /// Every barcode hit of the photos `ids`, keyed by photo id, in the order they were stored: a
    /// capture's hits in one read.
    public func hits(ofPhotos ids: [String]) throws -> [String: [BarcodeHit]] {
        try read { db in
            var found: [String: [BarcodeHit]] = [:]
            for start in stride(from: 0, to: ids.count, by: Self.hashChunkSize) {
                let chunk = ids[start ..< min(start + Self.hashChunkSize, ids.count)]
                for hit in try BarcodeHit.filter(chunk.contains(BarcodeHit.QueryColumns.photoId))
                    .order(BarcodeHit.QueryColumns.id).fetchAll(db) {
                    found[hit.photoId, default: []].append(hit)
                }
            }
            return found
        }
    }

    /// The photo with this id; nil when there is none.
    public func photo(id: String) throws -> Photo? {
        try read { db in try Photo.fetchOne(db, key: id) }
    }

    /// The one photo whose id starts with `idPrefix` (case-insensitive), as `capture(idPrefix:)`
    /// looks up captures; throws `EditError.ambiguousPhoto` when several do.
    public func photo(idPrefix: String) throws -> Photo? {
        guard idPrefix.count >= Self.minimumIdPrefixLength else { return nil }
        let prefix = idPrefix.lowercased()
        let matches = try read { db in
            try Photo.fetchAll(db, sql: "SELECT * FROM photo WHERE id >= ? AND id < ? ORDER BY id LIMIT 2",
                               arguments: [prefix, prefix + "\u{10FFFF}"])
        }
        guard matches.count <= 1 else { throw EditError.ambiguousPhoto(idPrefix) }
        return matches.first
    }
}

extension Catalogue {
    /// The capture with this (whole) id; nil when there is none.
    public func capture(id: String) throws -> Capture? {
        try read { db in try Capture.fetchOne(db, key: id) }
    }
}
