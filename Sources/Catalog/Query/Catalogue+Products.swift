import Foundation
import GRDB

/// How many products the catalogue knows, and how many captures find one.
public struct ProductStats: Sendable, Equatable {
    /// Products from dumps and entered by hand (their own rows, not the copies of 8-digit codes).
    public var fromDumps: Int
    public var manual: Int
    /// The newest `lastModified` of a dump row: how recent the imported dump is.
    public var newestModified: Int64?
    public var capturesWithProduct: Int
    public var capturesWithoutProduct: Int
}

extension Catalogue {
    /// The columns of `product` in the order `upsertProducts` binds them.
    private static let productColumns = [
        "gtin14", "code", "name", "brands", "quantity", "serving_size", "nutriscore_grade", "nova_group", "categories",
        "energy_kcal", "fat", "saturated_fat", "carbohydrates", "sugars", "fiber", "proteins", "salt",
        "last_modified", "source", "alias_of",
    ]

    /// Insert or update; an update happens only where the row is not manual (or `replaceManual`, the
    /// last argument, is set), a copy never overwrites a product's own row, and an older dump row
    /// never overwrites a newer one.
    private static let upsertSQL = """
        INSERT INTO product (\(productColumns.joined(separator: ", ")))
        VALUES (\(productColumns.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT (gtin14) DO UPDATE SET
            \(productColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        WHERE (product.source = 'off' OR ?)
          AND (excluded.alias_of IS NULL OR product.alias_of IS NOT NULL)
          AND ((excluded.alias_of IS NULL AND product.alias_of IS NOT NULL)
               OR ifnull(excluded.last_modified, 0) >= ifnull(product.last_modified, 0))
        """

    /// How the writer connection runs bulk product writes. 32 MB of page cache: a dump's random
    /// codes land all over the index, and SQLite's default 8 MB sends most of a big import's
    /// inserts to the disk. A checkpoint every 64 MB of log rather than 4 MB: pages rewritten by
    /// batch after batch reach the database file once per checkpoint. `synchronous = NORMAL`, the
    /// usual setting for WAL: a commit does not wait for the disk; a power cut may lose the last
    /// batches, never the catalogue's consistency, and importing again restores them.
    private static let bulkWriteSettings = """
        PRAGMA cache_size = -32768; PRAGMA wal_autocheckpoint = 16384; PRAGMA synchronous = NORMAL
        """

    /// Stores `products` in one transaction, each inserted or updated as `upsertSQL` allows, through
    /// one prepared statement, in key order (neighbours share pages). Returns how many of the
    /// products' own rows (not copies) were written; the others were kept (manual, or newer).
    /// Throws `CatalogError.storageFailed` for a full disk.
    public func upsertProducts(_ products: [Product], replaceManual: Bool) throws -> Int {
        try mappingStorageErrors {
            try writer.writeWithoutTransaction { db in
                // Outside the transaction: SQLite refuses to change `synchronous` inside one.
                try db.execute(sql: Self.bulkWriteSettings)
                var written = 0
                try db.inTransaction {
                    let statement = try db.cachedStatement(sql: Self.upsertSQL)
                    // Of two rows for one key, the later in the dump is written last.
                    let order = products.indices.sorted { (products[$0].gtin14, $0) < (products[$1].gtin14, $1) }
                    for product in order.lazy.map({ products[$0] }) {
                        Self.bind(product, replaceManual: replaceManual, to: statement)
                        try statement.execute()
                        if product.aliasOf == nil, db.changesCount > 0 { written += 1 }
                    }
                    return .commit
                }
                return written
            }
        }
    }

    /// Binds a product's values in `productColumns` order, then `replaceManual`, straight to the
    /// statement: `StatementArguments` boxes every value, which took most of an import's time.
    private static func bind(_ product: Product, replaceManual: Bool, to statement: Statement) {
        // Resets the statement and clears its bindings: NULL wherever nothing is bound.
        statement.setUncheckedArguments(StatementArguments())
        var index: CInt = 0
        func bind(_ value: (some StatementBinding)?) {
            index += 1
            guard let value else { return }
            let code = value.bind(to: statement.sqliteStatement, at: index)
            precondition(code == 0, "binding argument \(index) of the product upsert failed with SQLite code \(code)")
        }
        bind(product.gtin14)
        bind(product.code)
        bind(product.name)
        bind(product.brands)
        bind(product.quantity)
        bind(product.servingSize)
        bind(product.nutriscoreGrade)
        bind(product.novaGroup)
        bind(product.categories)
        bind(product.energyKcal)
        bind(product.fat)
        bind(product.saturatedFat)
        bind(product.carbohydrates)
        bind(product.sugars)
        bind(product.fiber)
        bind(product.proteins)
        bind(product.salt)
        bind(product.lastModified)
        bind(product.source.rawValue)
        bind(product.aliasOf)
        bind(replaceManual)
    }

    /// The product one of `keys` (GTIN-14s, most likely first) names: a product's own row before a
    /// copy; nil when none does.
    public func product(gtin14Keys keys: [String]) throws -> Product? {
        try read { db in
            let found = try Product.filter(keys.contains(Column("gtin14"))).fetchAll(db)
            return keys.lazy.compactMap { key in found.first { $0.gtin14 == key } }
                .min { ($0.aliasOf == nil ? 0 : 1) < ($1.aliasOf == nil ? 0 : 1) }
        }
    }

    /// The products of captures with these GTIN-13s (as `Capture.gtin13` holds them), keyed by GTIN-13.
    public func products(forGTIN13s codes: some Sequence<String>) throws -> [String: Product] {
        let keys = Array(Set(codes.map { "0" + $0 }))
        return try read { db in
            var found: [String: Product] = [:]
            for start in stride(from: 0, to: keys.count, by: Self.hashChunkSize) {
                let chunk = keys[start ..< min(start + Self.hashChunkSize, keys.count)]
                for product in try Product.filter(chunk.contains(Column("gtin14"))).fetchAll(db) {
                    found[String(product.gtin14.dropFirst())] = product
                }
            }
            return found
        }
    }

    /// The GTIN-14 of every catalogued capture's code, for an import of only those products.
    public func capturedGTIN14s() throws -> Set<String> {
        try read { db in
            var keys = Set<String>()
            let codes = try String.fetchCursor(db, sql: "SELECT DISTINCT '0' || gtin13 FROM capture WHERE gtin13 IS NOT NULL")
            while let code = try codes.next() { keys.insert(code) }
            return keys
        }
    }

    /// Products stored, the dump's date, and captures with and without a product.
    public func productStats() throws -> ProductStats {
        try read { db in
            let products = try Row.fetchOne(db, sql: """
                SELECT ifnull(sum(source = 'off'), 0), ifnull(sum(source = 'manual'), 0),
                       max(CASE WHEN source = 'off' THEN last_modified END)
                FROM product WHERE alias_of IS NULL
                """)!
            let captures = try Row.fetchOne(db, sql: """
                SELECT count(*), count(product.gtin14)
                FROM capture LEFT JOIN product ON product.gtin14 = '0' || capture.gtin13
                """)!
            let total: Int = captures[0], matched: Int = captures[1]
            return ProductStats(fromDumps: products[0], manual: products[1], newestModified: products[2],
                                capturesWithProduct: matched, capturesWithoutProduct: total - matched)
        }
    }
}
