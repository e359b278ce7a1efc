import Foundation

/// How many products the catalogue knows, and how many captures find one.
package struct ProductStats: Sendable, Equatable {
    /// Products from dumps and entered by hand (their own rows, not the copies of 8-digit codes).
    package var fromDumps: Int
    package var manual: Int
    /// The newest `lastModified` of a dump row: how recent the imported dump is.
    package var newestModified: Int64?
    package var capturesWithProduct: Int
    package var capturesWithoutProduct: Int
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
        VALUES (\(placeholders(productColumns.count)))
        ON CONFLICT (gtin14) DO UPDATE SET
            \(productColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        WHERE (product.source = 'off' OR ?)
          AND (excluded.alias_of IS NULL OR product.alias_of IS NOT NULL)
          AND ((excluded.alias_of IS NULL AND product.alias_of IS NOT NULL)
               OR coalesce(excluded.last_modified, 0) >= coalesce(product.last_modified, 0))
        """

    /// Stores `products` in one transaction, each inserted or updated as `upsertSQL` allows, through
    /// one prepared statement, in key order (neighbours share pages), as a bulk write (see
    /// `CatalogueStore.write(bulk:_:)`). Returns how many of the products' own rows (not copies)
    /// were written; the others were kept (manual, or newer). Throws `CatalogError.storageFailed`
    /// for a full disk.
    package func upsertProducts(_ products: [Product], replaceManual: Bool) throws -> Int {
        try mappingStorageErrors {
            try store.write(bulk: true) { db in
                var written = 0
                var arguments: [SQLValue] = []
                arguments.reserveCapacity(Self.productColumns.count + 1)
                // Of two rows for one key, the later in the dump is written last.
                let order = products.indices.sorted { (products[$0].gtin14, $0) < (products[$1].gtin14, $1) }
                for product in order.lazy.map({ products[$0] }) {
                    arguments.removeAll(keepingCapacity: true)
                    Self.append(product, to: &arguments)
                    arguments.append(replaceManual.sqlValue)
                    let changed = try db.execute(Self.upsertSQL, arguments)
                    if product.aliasOf == nil, changed > 0 { written += 1 }
                }
                return written
            }
        }
    }

    /// A product's values in `productColumns` order, each bound straight to the statement.
    private static func append(_ product: Product, to arguments: inout [SQLValue]) {
        arguments.append(product.gtin14.sqlValue)
        arguments.append(product.code.sqlValue)
        arguments.append(product.name.sqlValue)
        arguments.append(product.brands.sqlValue)
        arguments.append(product.quantity.sqlValue)
        arguments.append(product.servingSize.sqlValue)
        arguments.append(product.nutriscoreGrade.sqlValue)
        arguments.append(product.novaGroup.sqlValue)
        arguments.append(product.categories.sqlValue)
        arguments.append(product.energyKcal.sqlValue)
        arguments.append(product.fat.sqlValue)
        arguments.append(product.saturatedFat.sqlValue)
        arguments.append(product.carbohydrates.sqlValue)
        arguments.append(product.sugars.sqlValue)
        arguments.append(product.fiber.sqlValue)
        arguments.append(product.proteins.sqlValue)
        arguments.append(product.salt.sqlValue)
        arguments.append(product.lastModified.sqlValue)
        arguments.append(product.source.sqlValue)
        arguments.append(product.aliasOf.sqlValue)
    }

    /// The product one of `keys` (GTIN-14s, most likely first) names: a product's own row before a
    /// copy; nil when none does.
    package func product(gtin14Keys keys: [String]) throws -> Product? {
        guard !keys.isEmpty else { return nil }
        return try read { db in
            let found = try db.fetchAll(Product.self, "SELECT * FROM product WHERE gtin14 IN (\(placeholders(keys.count)))",
                                        keys.map(\.sqlValue))
            return keys.lazy.compactMap { key in found.first { $0.gtin14 == key } }
                .min { ($0.aliasOf == nil ? 0 : 1) < ($1.aliasOf == nil ? 0 : 1) }
        }
    }

    /// The products of captures with these GTIN-13s (as `Capture.gtin13` holds them), keyed by GTIN-13.
    package func products(forGTIN13s codes: some Sequence<String>) throws -> [String: Product] {
        let keys = Array(Set(codes.map { "0" + $0 }))
        return try read { db in
            var found: [String: Product] = [:]
            try Self.forEachChunk(of: keys.map(\.sqlValue)) { chunk in
                try db.forEach(Product.self, "SELECT * FROM product WHERE gtin14 IN (\(placeholders(Self.hashChunkSize)))", chunk) {
                    found[String($0.gtin14.dropFirst())] = $0
                }
            }
            return found
        }
    }

    /// The GTIN-14 of every catalogued capture's code, for an import of only those products.
    package func capturedGTIN14s() throws -> Set<String> {
        try read { db in
            var keys = Set<String>()
            try db.query("SELECT DISTINCT '0' || gtin13 FROM capture WHERE gtin13 IS NOT NULL", []) { keys.insert($0[0]) }
            return keys
        }
    }

    /// Products stored, the dump's date, and captures with and without a product.
    package func productStats() throws -> ProductStats {
        try read { db in
            var stats = ProductStats(fromDumps: 0, manual: 0, newestModified: nil, capturesWithProduct: 0, capturesWithoutProduct: 0)
            try db.query("""
                SELECT count(CASE WHEN source = 'off' THEN 1 END), count(CASE WHEN source = 'manual' THEN 1 END),
                       max(CASE WHEN source = 'off' THEN last_modified END)
                FROM product WHERE alias_of IS NULL
                """, []) { row in
                stats.fromDumps = row[0]
                stats.manual = row[1]
                stats.newestModified = row[2]
            }
            try db.query("""
                SELECT count(*), count(product.gtin14)
                FROM capture LEFT JOIN product ON product.gtin14 = '0' || capture.gtin13
                """, []) { row in
                stats.capturesWithProduct = row[1]
                stats.capturesWithoutProduct = row[0] - stats.capturesWithProduct
            }
            return stats
        }
    }
}
