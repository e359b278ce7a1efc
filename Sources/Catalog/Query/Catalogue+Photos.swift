import GRDB

extension Catalogue {
    /// Calls `body` with every photo of the catalogue, `size` at a time, in the order they were
    /// catalogued. Each batch is its own read (keyset paging on the rowid), so `body` may write, and
    /// memory holds one batch whatever the catalogue's size.
    public func forEachPhotoBatch(size: Int, _ body: ([Photo]) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let rows = try read { db in
                try Row.fetchAll(db, sql: "SELECT rowid AS photo_rowid, * FROM photo WHERE rowid > ? ORDER BY rowid LIMIT ?",
                                 arguments: [after, size])
            }
            guard let last = rows.last else { return }
            after = last["photo_rowid"]
            try body(try rows.map { try Photo(row: $0) })
            if rows.count < size { return }
        }
    }

    /// Up to `count` photos picked at random, each as likely as any other (fewer only when the
    /// catalogue holds fewer). Picks rowids, so it reads only the photos it returns.
    public func randomPhotos(count: Int) throws -> [Photo] {
        let (total, highest) = try read { db -> (Int, Int64) in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), ifnull(max(rowid), 0) FROM photo")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
        guard count < total else { return try read { db in try Photo.fetchAll(db) } }
        var generator = SystemRandomNumberGenerator()
        var chosen: [Int64: Photo] = [:]
        var tried = Set<Int64>()
        while chosen.count < count, tried.count < highest {
            var candidates: [Int64] = []
            while candidates.count < min(Self.hashChunkSize, count - chosen.count), tried.count < highest {
                let rowid = Int64.random(in: 1 ... highest, using: &generator)
                if tried.insert(rowid).inserted { candidates.append(rowid) }
            }
            let found = try read { db in
                try Row.fetchAll(db, sql: "SELECT rowid AS photo_rowid, * FROM photo WHERE rowid IN (\(candidates.map { _ in "?" }.joined(separator: ",")))",
                                 arguments: StatementArguments(candidates))
            }
            for row in found { chosen[row["photo_rowid"]] = try Photo(row: row) }
        }
        return Array(chosen.values)
    }

    /// The library paths among `paths` that a photo row names as its original or thumbnail.
    public func referencedPaths(among paths: [String]) throws -> Set<String> {
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
    private static func paths(_ paths: [String], in column: String, _ db: Database) throws -> Set<String> {
        var found = Set<String>()
        for start in stride(from: 0, to: paths.count, by: hashChunkSize) {
            let chunk = Array(paths[start ..< min(start + hashChunkSize, paths.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            found.formUnion(try String.fetchAll(db, sql: "SELECT \(column) FROM photo WHERE \(column) IN (\(marks))",
                                                arguments: StatementArguments(chunk)))
        }
        return found
    }

    /// The photos whose thumbnail is at one of `paths` (library-relative).
    public func photos(withThumbPaths paths: [String]) throws -> [Photo] {
        try read { db in
            var found: [Photo] = []
            for start in stride(from: 0, to: paths.count, by: Self.hashChunkSize) {
                let chunk = Array(paths[start ..< min(start + Self.hashChunkSize, paths.count)])
                found += try Photo.filter(chunk.contains(Column("thumb_path"))).fetchAll(db)
            }
            return found
        }
    }
}

/// Where a photo's files are and what the original was when catalogued: what `verify --quick`
/// compares, read without decoding whole photo rows.
public struct PhotoFiles: Sendable, Hashable {
    public var originalPath: String
    public var thumbPath: String
    public var byteSize: Int64
    /// Nanoseconds since 1970; nil for photos catalogued before it was recorded.
    public var originalModified: Int64?
}

extension Catalogue {
    /// Calls `body` with every photo's files, `size` at a time, as `forEachPhotoBatch` does.
    public func forEachPhotoFilesBatch(size: Int, _ body: ([PhotoFiles]) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            var last: Int64?
            let batch = try read { db in
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT rowid, original_path, thumb_path, byte_size, original_modified FROM photo
                    WHERE rowid > ? ORDER BY rowid LIMIT ?
                    """, arguments: [after, size])
                var batch: [PhotoFiles] = []
                while let row = try rows.next() {
                    last = row[0]
                    batch.append(PhotoFiles(originalPath: row[1], thumbPath: row[2], byteSize: row[3], originalModified: row[4]))
                }
                return batch
            }
            guard let last else { return }
            after = last
            try body(batch)
            if batch.count < size { return }
        }
    }
}
