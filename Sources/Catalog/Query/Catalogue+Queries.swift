import Foundation
import GRDB

extension Catalogue {
    /// How many hashes go in one `IN (…)` list, well below SQLite's bound-parameter limit.
    static let hashChunkSize = 500

    /// The already-catalogued photos among `hashes` (lower-case hex SHA-256), keyed by hash.
    ///
    /// Hashes not in the catalogue are simply absent from the result; any number of hashes may be passed.
    public func photos(withSHA256 hashes: [String]) throws -> [String: Photo] {
        let unique = Array(Set(hashes))
        return try read { db in
            var found: [String: Photo] = [:]
            for start in stride(from: 0, to: unique.count, by: Self.hashChunkSize) {
                let chunk = unique[start ..< min(start + Self.hashChunkSize, unique.count)]
                for photo in try Photo.filter(chunk.contains(Photo.QueryColumns.sha256)).fetchAll(db) {
                    found[photo.sha256] = photo
                }
            }
            return found
        }
    }

    /// The catalogued photo with this SHA-256, if any; nil also when the catalogue cannot be read,
    /// so a caller deciding whether to analyse a photo errs on the side of analysing it.
    public func photo(withSHA256 hash: String) -> Photo? {
        try? read { db in try Photo.filter(Photo.QueryColumns.sha256 == hash).fetchOne(db) }
    }

    /// The captures `filter` matches, newest first (`capturedUTC` descending, then id descending):
    /// at most `limit`, starting after `before`.
    public func captures(matching filter: CaptureFilter = .init(), limit: Int? = nil,
                         before: CaptureCursor? = nil) throws -> [Capture] {
        try read { db in try filter.request(db, before: before).limit(limit ?? -1).fetchAll(db) }
    }

    /// Calls `body` with each capture `filter` matches and its product (nil: none), in the order of
    /// `captures(matching:)`, from a cursor: memory stays the same whatever the number of captures.
    /// Reads one snapshot; each product is one probe of its key, in the same read, since `body`
    /// may not read the catalogue while the cursor is open.
    public func forEachCapture(matching filter: CaptureFilter = .init(), limit: Int? = nil, before: CaptureCursor? = nil,
                               _ body: (Capture, Product?) throws -> Void) throws {
        try read { db in
            let cursor = try filter.request(db, before: before).limit(limit ?? -1).fetchCursor(db)
            let product = try db.makeStatement(sql: "SELECT * FROM product WHERE gtin14 = ?")
            while let capture = try cursor.next() {
                try body(capture, try capture.gtin13.flatMap { try Product.fetchOne(product, arguments: ["0" + $0]) })
            }
        }
    }

    /// How many captures `filter` matches (after `before`, when given).
    public func count(matching filter: CaptureFilter = .init(), before: CaptureCursor? = nil) throws -> Int {
        try read { db in try filter.request(db, before: before).fetchCount(db) }
    }

    /// As `count(matching:before:)`, but stops counting at `limit`: the time it takes is bounded
    /// whatever the catalogue's size.
    public func count(matching filter: CaptureFilter = .init(), before: CaptureCursor? = nil, upTo limit: Int) throws -> Int {
        // Only the id: the filter's index holds it, so no row of the table is read.
        try read { db in try filter.request(db, before: before).select(Capture.QueryColumns.id).limit(limit).fetchCount(db) }
    }

    /// The shortest id prefix `capture(idPrefix:)` looks up: shorter ones name too many captures to
    /// be meant (an empty one, all of them).
    public static let minimumIdPrefixLength = 4

    /// The one capture whose id starts with `idPrefix` (case-insensitive), or nil when none does or
    /// the prefix is shorter than `minimumIdPrefixLength`.
    ///
    /// Throws `CatalogError.ambiguousId` when several captures start with the prefix. Ids are
    /// lowercase, so the prefix is looked up lowercased, as a range of the primary key's index.
    public func capture(idPrefix: String) throws -> Capture? {
        guard idPrefix.count >= Self.minimumIdPrefixLength else { return nil }
        let prefix = idPrefix.lowercased()
        let matches = try read { db in
            try Capture.fetchAll(db, sql: "SELECT * FROM capture WHERE id >= ? AND id < ? ORDER BY id",
                                 arguments: [prefix, prefix + "\u{10FFFF}"])
        }
        guard matches.count <= 1 else {
            throw CatalogError.ambiguousId(idPrefix, matches.count)
        }
        return matches.first
    }

    /// The photos of one capture, by position.
    public func photos(ofCapture id: String) throws -> [Photo] {
        try read { db in
            try Photo.filter(Photo.QueryColumns.captureId == id).order(Photo.QueryColumns.position).fetchAll(db)
        }
    }

    /// Every barcode hit found on one photo, in the order they were stored.
    public func hits(ofPhoto id: String) throws -> [BarcodeHit] {
        try read { db in
            try BarcodeHit.filter(BarcodeHit.QueryColumns.photoId == id).order(BarcodeHit.QueryColumns.id).fetchAll(db)
        }
    }

    /// How many captures, photos and barcode hits the catalogue holds.
    public func counts() throws -> (captures: Int, photos: Int, hits: Int) {
        try read { db in
            (captures: try Capture.fetchCount(db), photos: try Photo.fetchCount(db), hits: try BarcodeHit.fetchCount(db))
        }
    }

    /// Every agent, keyed by id.
    public func agents() throws -> [String: Agent] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Agent.fetchAll(db).map { ($0.id, $0) })
        }
    }

    /// Every photo of the catalogue, by capture and position.
    public func allPhotos() throws -> [Photo] {
        try read { db in
            try Photo.order(Photo.QueryColumns.captureId, Photo.QueryColumns.position).fetchAll(db)
        }
    }

    /// The library-relative paths where captures keep their set's `capture.json`.
    public func contextPaths() throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT context_path FROM capture WHERE context_path IS NOT NULL"))
        }
    }
}

extension Capture {
    /// The agent's name to show: its latest name in `agents` (from `Catalogue.agents()`), else the
    /// name at capture time; nil for a capture without agent.
    public func agentName(latestIn agents: [String: Agent]) -> String? {
        agentId.flatMap { agents[$0]?.name } ?? agentName
    }
}
