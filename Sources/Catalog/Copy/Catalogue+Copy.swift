import Foundation

/// What `Catalogue.copy(to:)` copied: each table's rows and checksum, equal on both sides.
package struct CatalogueCopyReport: Sendable {
    package struct Table: Sendable, Equatable {
        package var name: String
        package var rows: Int
        /// FNV-1a of every row's values in key order (`TableChecksum`), as 16 hex digits.
        package var checksum: String
    }

    package var tables: [Table]
}

extension Catalogue {
    /// The tables a copy carries, parents before children, each with the key it is read in. The
    /// workers and their claims are not copied: they belong to the processes of one catalogue.
    static let copiedTables: [(name: String, key: String)] = [
        ("run", "id"), ("agent", "id"), ("agent_name", "agent_id, name"), ("capture", "id"), ("photo", "id"),
        ("barcode_hit", "id"), ("product", "id"), ("edit", "id"), ("edit_capture", "capture_id, edit_id"),
        ("held_file", "path"),
    ]

    /// Copies every row of this catalogue into `destination`, which must hold none, from one
    /// snapshot of this one into one transaction of the other (SQLite into PostgreSQL or back),
    /// keeping every id; then counts and checksums each table on both sides. Throws
    /// `CatalogError.copyFailed` when the destination is not empty or the two differ (then the
    /// destination is left as the copy made it, for a look; empty it to try again).
    package func copy(to destination: Catalogue) throws -> CatalogueCopyReport {
        let written = try read { source in
            try destination.write { target in
                let held = try Self.copiedTables.map { try target.scalar(Int.self, "SELECT count(*) FROM \($0.name)") ?? 0 }.reduce(0, +)
                guard held == 0 else {
                    throw CatalogError.copyFailed(path: destination.path, reason: "it holds \(held) rows already; copy into an empty catalogue")
                }
                return try Self.copiedTables.map { table in try Self.copy(table.name, key: table.key, from: source, to: target) }
            }
        }
        try destination.write { db in try Self.continueNumbering(db) }
        let read = try destination.checksums()
        guard read == written else {
            let differing = zip(written, read).filter { $0 != $1 }.map { "\($0.name): \($0.rows) rows written, \($1.rows) read back" }
            throw CatalogError.copyFailed(path: destination.path, reason: "the copy differs: \(differing.joined(separator: "; "))")
        }
        return CatalogueCopyReport(tables: written)
    }

    /// Every copied table's row count and checksum, from one snapshot.
    package func checksums() throws -> [CatalogueCopyReport.Table] {
        try read { db in
            try Self.copiedTables.map { table in
                var checksum = TableChecksum()
                try db.query("SELECT * FROM \(table.name) ORDER BY \(table.key)", []) { checksum.add($0) }
                return checksum.table(table.name)
            }
        }
    }

    /// Copies the rows of `table` in key order, 100 to an `INSERT`; returns what it copied.
    private static func copy(_ table: String, key: String, from source: any SQLConnection,
                             to target: any SQLConnection) throws -> CatalogueCopyReport.Table {
        var checksum = TableChecksum()
        var columns: [String] = []
        var pending: [SQLValue] = []
        var rows = 0
        func flush() throws {
            guard rows > 0 else { return }
            let row = "(\(placeholders(columns.count)))"
            try target.execute("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", "), pending)
            pending.removeAll(keepingCapacity: true)
            rows = 0
        }
        try source.query("SELECT * FROM \(table) ORDER BY \(key)", []) { row in
            if columns.isEmpty { columns = (0 ..< row.count).map(row.name(at:)) }
            checksum.add(row)
            pending += (0 ..< row.count).map(row.value(at:))
            rows += 1
            if rows == 100 { try flush() }
        }
        try flush()
        return checksum.table(table)
    }

    /// After rows were inserted with their ids, a PostgreSQL identity column goes on numbering
    /// after the largest (SQLite's `AUTOINCREMENT` and rowids do so by themselves).
    private static func continueNumbering(_ db: any SQLConnection) throws {
        guard db.dialect == .postgres else { return }
        for table in ["run", "barcode_hit", "product", "edit"] {
            _ = try db.scalar(String.self, """
                SELECT setval(pg_get_serial_sequence('\(table)', 'id'), coalesce(max(id), 0) + 1, false)::text FROM \(table)
                """)
        }
    }
}

/// An order-dependent checksum of rows as the database stores them: FNV-1a over each value's kind
/// and bytes (a double's bits), so that the same rows read from SQLite and PostgreSQL sum alike.
struct TableChecksum {
    private(set) var rows = 0
    private var hash: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ row: any SQLRow) {
        rows += 1
        for index in 0 ..< row.count {
            switch row.value(at: index) {
            case .null: mix([0])
            case .integer(let value): mix([1]); mix(withUnsafeBytes(of: value.littleEndian, Array.init))
            case .real(let value): mix([2]); mix(withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init))
            case .text(let value): mix([3]); mix(Array(value.utf8)); mix([0])
            }
        }
    }

    private mutating func mix(_ bytes: [UInt8]) {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    func table(_ name: String) -> CatalogueCopyReport.Table {
        CatalogueCopyReport.Table(name: name, rows: rows, checksum: String(hash, radix: 16))
    }
}
