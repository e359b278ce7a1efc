import Foundation

extension Catalogue {
    /// How many values go in one `IN (…)` list: well below SQLite's bound-parameter limit, and
    /// always this many (the rest NULL, which matches nothing), so that one prepared statement
    /// serves every chunk.
    static let hashChunkSize = 500

    /// Calls `body` with `values` in chunks of `hashChunkSize`, each padded with NULL to that size.
    static func forEachChunk(of values: [SQLValue], _ body: ([SQLValue]) throws -> Void) rethrows {
        for start in stride(from: 0, to: values.count, by: hashChunkSize) {
            let chunk = values[start ..< min(start + hashChunkSize, values.count)]
            try body(Array(chunk) + Array(repeating: .null, count: hashChunkSize - chunk.count))
        }
    }

    /// `SELECT * FROM photo WHERE column IN (…one chunk…)`.
    static func photosSQL(whereIn column: String) -> String {
        "SELECT * FROM photo WHERE \(column) IN (\(placeholders(hashChunkSize)))"
    }

    /// The already-catalogued photos among `hashes` (lower-case hex SHA-256), keyed by hash.
    ///
    /// Hashes not in the catalogue are simply absent from the result; any number of hashes may be passed.
    package func photos(withSHA256 hashes: [String]) throws -> [String: Photo] {
        let unique = Array(Set(hashes))
        return try read { db in
            var found: [String: Photo] = [:]
            try Self.forEachChunk(of: unique.map(\.sqlValue)) { chunk in
                try db.forEach(Photo.self, Self.photosSQL(whereIn: "sha256"), chunk) { found[$0.sha256] = $0 }
            }
            return found
        }
    }

    /// The catalogued photo with this SHA-256, if any; nil also when the catalogue cannot be read,
    /// so a caller deciding whether to analyse a photo errs on the side of analysing it.
    package func photo(withSHA256 hash: String) -> Photo? {
        try? read { db in try db.fetchOne(Photo.self, "SELECT * FROM photo WHERE sha256 = ?", [hash.sqlValue]) }
    }

    /// The captures `filter` matches, newest first (`capturedUTC` descending, then id descending):
    /// at most `limit`, starting after `before`.
    package func captures(matching filter: CaptureFilter = .init(), limit: Int? = nil,
                         before: CaptureCursor? = nil) throws -> [Capture] {
        try read { db in
            let query = try filter.sql(db, before: before)
            return try db.fetchAll(Capture.self, "SELECT capture.* \(query.body)" + Self.limitSQL(limit),
                                   query.arguments + Self.limitArguments(limit))
        }
    }

    /// Calls `body` with each capture `filter` matches and its product (nil: none), in the order of
    /// `captures(matching:)`, as the database yields them: memory stays the same whatever the
    /// number of captures. Reads one snapshot; each product is one probe of its key, joined in
    /// the same query. `body` may not read the catalogue while the query runs.
    package func forEachCapture(matching filter: CaptureFilter = .init(), limit: Int? = nil, before: CaptureCursor? = nil,
                               _ body: (Capture, Product?) throws -> Void) throws {
        try read { db in
            let query = try filter.sql(db, before: before)
            var columns: (capture: RowColumns, product: RowColumns, productStart: Int)?
            try db.query("""
                SELECT capture.*, product.* \(query.from) LEFT JOIN product ON product.gtin14 = '0' || capture.gtin13
                \(query.whereClause) \(query.orderBy)
                """ + Self.limitSQL(limit), query.arguments + Self.limitArguments(limit)) { row in
                let known = columns ?? Self.joinedColumns(row)
                columns = known
                let capture = try Capture(from: RowDecoder(row: row, columns: known.capture))
                let product = row.isNull(at: known.productStart) ? nil
                    : try Product(from: RowDecoder(row: row, columns: known.product))
                try body(capture, product)
            }
        }
    }

    /// Where the capture's and the product's columns are in a row of `capture.*, product.*`: the
    /// product's start at its `id`, the second column of that name.
    private static func joinedColumns(_ row: any SQLRow) -> (capture: RowColumns, product: RowColumns, productStart: Int) {
        let start = (1 ..< row.count).first { row.name(at: $0) == "id" } ?? row.count
        return (RowColumns(row, range: 0 ..< start), RowColumns(row, range: start ..< row.count), start)
    }

    /// ` LIMIT ?` when there is a limit.
    static func limitSQL(_ limit: Int?) -> String { limit == nil ? "" : " LIMIT ?" }

    /// The limit's argument, when there is one.
    static func limitArguments(_ limit: Int?) -> [SQLValue] { limit.map { [$0.sqlValue] } ?? [] }

    /// How many captures `filter` matches (after `before`, when given).
    package func count(matching filter: CaptureFilter = .init(), before: CaptureCursor? = nil) throws -> Int {
        try read { db in
            let query = try filter.sql(db, before: before)
            return try db.scalar(Int.self, "SELECT count(*) \(query.from) \(query.whereClause)", query.arguments) ?? 0
        }
    }

    /// As `count(matching:before:)`, but stops counting at `limit`: the time it takes is bounded
    /// whatever the catalogue's size.
    package func count(matching filter: CaptureFilter = .init(), before: CaptureCursor? = nil, upTo limit: Int) throws -> Int {
        try read { db in
            let query = try filter.sql(db, before: before)
            // Only the id: the filter's index holds it, so no row of the table is read.
            return try db.scalar(Int.self, "SELECT count(*) FROM (SELECT capture.id \(query.body) LIMIT ?) AS page",
                                 query.arguments + [limit.sqlValue]) ?? 0
        }
    }

    /// The shortest id prefix `capture(idPrefix:)` looks up: shorter ones name too many captures to
    /// be meant (an empty one, all of them).
    package static let minimumIdPrefixLength = 4

    /// The one capture whose id starts with `idPrefix` (case-insensitive), or nil when none does or
    /// the prefix is shorter than `minimumIdPrefixLength`.
    ///
    /// Throws `CatalogError.ambiguousId` when several captures start with the prefix. Ids are
    /// lowercase, so the prefix is looked up lowercased, as a range of the primary key's index.
    package func capture(idPrefix: String) throws -> Capture? {
        guard idPrefix.count >= Self.minimumIdPrefixLength else { return nil }
        let prefix = idPrefix.lowercased()
        let matches = try read { db in
            try db.fetchAll(Capture.self, "SELECT * FROM capture WHERE id >= ? AND id < ? ORDER BY id",
                            [prefix.sqlValue, (prefix + "\u{10FFFF}").sqlValue])
        }
        guard matches.count <= 1 else {
            throw CatalogError.ambiguousId(idPrefix, matches.count)
        }
        return matches.first
    }

    /// The photos of one capture, by position.
    package func photos(ofCapture id: String) throws -> [Photo] {
        try read { db in try db.fetchAll(Photo.self, "SELECT * FROM photo WHERE capture_id = ? ORDER BY position", [id.sqlValue]) }
    }

    /// Every barcode hit found on one photo, in the order they were stored.
    package func hits(ofPhoto id: String) throws -> [BarcodeHit] {
        try read { db in try db.fetchAll(BarcodeHit.self, "SELECT * FROM barcode_hit WHERE photo_id = ? ORDER BY id", [id.sqlValue]) }
    }

    /// How many captures, photos and barcode hits the catalogue holds.
    package func counts() throws -> (captures: Int, photos: Int, hits: Int) {
        try read { db in
            func count(_ table: String) throws -> Int { try db.scalar(Int.self, "SELECT count(*) FROM \(table)") ?? 0 }
            return (captures: try count("capture"), photos: try count("photo"), hits: try count("barcode_hit"))
        }
    }

    /// Every agent, keyed by id.
    package func agents() throws -> [String: Agent] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try db.fetchAll(Agent.self, "SELECT * FROM agent").map { ($0.id, $0) })
        }
    }

    /// Every photo of the catalogue, by capture and position.
    package func allPhotos() throws -> [Photo] {
        try read { db in try db.fetchAll(Photo.self, "SELECT * FROM photo ORDER BY capture_id, position") }
    }

    /// The library-relative paths where captures keep their set's `capture.json`.
    package func contextPaths() throws -> Set<String> {
        try read { db in
            Set(try db.column(String.self, "SELECT DISTINCT context_path FROM capture WHERE context_path IS NOT NULL"))
        }
    }
}

extension Capture {
    /// The agent's name to show: its latest name in `agents` (from `Catalogue.agents()`), else the
    /// name at capture time; nil for a capture without agent.
    package func agentName(latestIn agents: [String: Agent]) -> String? {
        agentId.flatMap { agents[$0]?.name } ?? agentName
    }
}
