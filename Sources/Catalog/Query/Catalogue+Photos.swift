extension Catalogue {
    /// Calls `body` with every photo of the catalogue, `size` at a time, in the order they were
    /// catalogued (SQLite; PostgreSQL: by id). Each batch is its own read (keyset paging), so
    /// `body` may write, and memory holds one batch whatever the catalogue's size.
    package func forEachPhotoBatch(size: Int, _ body: ([Photo]) throws -> Void) throws {
        var columns: RowColumns?
        try forEachBatch(size: size, columns: "*") { row in
            let known = columns ?? RowColumns(row, range: 1 ..< row.count)
            columns = known
            return try Photo(from: RowDecoder(row: row, columns: known))
        } body: { try body($0) }
    }

    /// Calls `body` with every photo's files, `size` at a time, as `forEachPhotoBatch` does.
    package func forEachPhotoFilesBatch(size: Int, _ body: ([PhotoFiles]) throws -> Void) throws {
        try forEachBatch(size: size, columns: "original_path, thumb_path, byte_size, original_modified") { row in
            PhotoFiles(originalPath: row[1], thumbPath: row[2], byteSize: row[3], originalModified: row[4])
        } body: { try body($0) }
    }

    /// Pages through the photo table by its key (`SQLDialect.photoKey`), `size` rows a read, each
    /// row `key, columns` made an item by `make` inside the read, the batch handed to `body` after it.
    private func forEachBatch<Item>(size: Int, columns: String, make: (any SQLRow) throws -> Item,
                                    body: ([Item]) throws -> Void) throws {
        let key = store.dialect.photoKey
        var after = key.first
        while true {
            var last: SQLValue?
            let batch = try read { db in
                var items: [Item] = []
                try db.query("SELECT \(key.column), \(columns) FROM photo WHERE \(key.column) > ? ORDER BY \(key.column) LIMIT ?",
                              [after, size.sqlValue]) { row in
                    last = row.value(at: 0)
                    items.append(try make(row))
                }
                return items
            }
            guard let last else { return }
            after = last
            try body(batch)
            if batch.count < size { return }
        }
    }

    /// Up to `count` photos picked at random, each as likely as any other (fewer only when the
    /// catalogue holds fewer). SQLite: picks rowids, so it reads only the photos it returns;
    /// PostgreSQL: a random order of the whole table.
    package func randomPhotos(count: Int) throws -> [Photo] {
        let (total, highest) = try read { db -> (Int, Int64) in
            var result = (0, Int64(0))
            let highest = store.dialect == .sqlite ? "coalesce(max(rowid), 0)" : "0"
            try db.query("SELECT count(*), \(highest) FROM photo", []) { result = ($0[0], $0[1]) }
            return result
        }
        guard count < total else { return try read { db in try db.fetchAll(Photo.self, "SELECT * FROM photo") } }
        guard store.dialect == .sqlite else {
            return try read { db in try db.fetchAll(Photo.self, "SELECT * FROM photo ORDER BY random() LIMIT ?", [count.sqlValue]) }
        }
        var generator = SystemRandomNumberGenerator()
        var chosen: [Int64: Photo] = [:]
        var tried = Set<Int64>()
        while chosen.count < count, tried.count < highest {
            var candidates: [SQLValue] = []
            while candidates.count < min(Self.hashChunkSize, count - chosen.count), tried.count < highest {
                let rowid = Int64.random(in: 1 ... highest, using: &generator)
                if tried.insert(rowid).inserted { candidates.append(.integer(rowid)) }
            }
            try read { db in
                try Self.forEachChunk(of: candidates) { chunk in
                    var columns: RowColumns?
                    try db.query("SELECT rowid, * FROM photo WHERE rowid IN (\(placeholders(Self.hashChunkSize)))", chunk) { row in
                        let known = columns ?? RowColumns(row, range: 1 ..< row.count)
                        columns = known
                        chosen[row[0]] = try Photo(from: RowDecoder(row: row, columns: known))
                    }
                }
            }
        }
        return Array(chosen.values)
    }

    /// The library paths among `paths` that a photo row names as its original or thumbnail.
    package func referencedPaths(among paths: [String]) throws -> Set<String> {
        try read { db in
            // Each path is looked up first in the column its folder suggests, then in the other one
            // if not found there: one index probe per path in a library laid out as ingest lays it.
            let byThumbs = Dictionary(grouping: paths) { $0.hasPrefix("thumbs/") }
            var found = Set<String>()
            for (inThumbs, group) in byThumbs {
                let (first, second) = inThumbs ? ("thumb_path", "original_path") : ("original_path", "thumb_path")
                let hits = try Self.paths(group, in: first, db)
                found.formUnion(hits)
                found.formUnion(try Self.paths(group.filter { !hits.contains($0) }, in: second, db))
            }
            return found
        }
    }

    /// Those of `paths` the photo column `column` holds.
    private static func paths(_ paths: [String], in column: String, _ db: any SQLConnection) throws -> Set<String> {
        var found = Set<String>()
        try forEachChunk(of: paths.map(\.sqlValue)) { chunk in
            found.formUnion(try db.column(String.self, "SELECT \(column) FROM photo WHERE \(column) IN (\(placeholders(hashChunkSize)))", chunk))
        }
        return found
    }

    /// The photos whose thumbnail is at one of `paths` (library-relative).
    package func photos(withThumbPaths paths: [String]) throws -> [Photo] {
        try read { db in
            var found: [Photo] = []
            try Self.forEachChunk(of: paths.map(\.sqlValue)) { chunk in
                found += try db.fetchAll(Photo.self, Self.photosSQL(whereIn: "thumb_path"), chunk)
            }
            return found
        }
    }
}

/// Where a photo's files are and what the original was when catalogued: what `verify --quick`
/// compares, read without decoding whole photo rows.
package struct PhotoFiles: Sendable, Hashable {
    package var originalPath: String
    package var thumbPath: String
    package var byteSize: Int64
    /// Nanoseconds since 1970; nil for photos catalogued before it was recorded.
    package var originalModified: Int64?
}
