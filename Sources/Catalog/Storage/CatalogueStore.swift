/// Where the catalogue's rows live, SQLite (`SQLiteStore`) or PostgreSQL (`PostgresStore`): it
/// lends `SQLConnection`s for reads and writes, and brings the schema up to date. The catalogue's
/// queries are written once, against `SQLConnection`; a store knows only its database.
protocol CatalogueStore: Sendable {
    var dialect: SQLDialect { get }

    /// Runs `body` on a connection that sees one consistent snapshot of the catalogue.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T

    /// Runs `body` in one write transaction: all of it is kept, or — when `body` throws — none.
    /// `bulk` trades the durability of the last transactions for speed, for writes that can be
    /// repeated (a product import): a power cut may lose them, never the catalogue's consistency.
    func write<T>(bulk: Bool, _ body: (any SQLConnection) throws -> T) throws -> T

    /// Applies the migrations in `known` (oldest first) that the database lacks, unless it holds
    /// one `known` does not list: then nothing is applied and those are returned as `unknown`.
    func migrate(known: [String]) throws -> (applied: [String], unknown: [String])

    /// The identifiers of the migrations the database has recorded.
    func appliedMigrations() throws -> Set<String>

    /// Lets the database go; later calls fail.
    func close() throws
}

extension CatalogueStore {
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(bulk: false, body)
    }
}
