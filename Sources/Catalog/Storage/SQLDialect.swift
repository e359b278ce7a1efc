/// The few places where SQLite's and PostgreSQL's SQL differ. Every query of the catalogue is
/// written once, with `?` placeholders (PostgreSQL's connection numbers them), `coalesce`,
/// `ON CONFLICT` and `RETURNING`, which both understand; what remains is here.
enum SQLDialect: String, Sendable {
    case sqlite
    case postgres

    /// Where `needle` starts in `haystack` (1-based), 0 when it does not occur: SQLite's `instr`,
    /// PostgreSQL's `strpos`.
    func position(of needle: String, in haystack: String) -> String {
        switch self {
        case .sqlite: "instr(\(haystack), \(needle))"
        case .postgres: "strpos(\(haystack), \(needle))"
        }
    }

    /// The database server's clock, in seconds since 1970 (with a fraction): the one clock every
    /// worker's leases are measured by, whatever the workers' own clocks say.
    var now: String {
        switch self {
        case .sqlite: "((julianday('now') - 2440587.5) * 86400.0)"
        case .postgres: "extract(epoch FROM clock_timestamp())::float8"
        }
    }

    /// Appended to a `SELECT` to lock the rows it reads until the transaction ends. SQLite locks
    /// the whole database for a write transaction, so it needs none.
    var lockingRead: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }

    /// The column photos are paged through in `forEachPhotoBatch`, and the value before the first:
    /// SQLite's `rowid`, the order photos were catalogued in, which reads the table front to back;
    /// PostgreSQL has no rowid, and pages through the primary key.
    var photoKey: (column: String, first: SQLValue) {
        switch self {
        case .sqlite: ("rowid", .integer(0))
        case .postgres: ("id", .text(""))
        }
    }

    /// `column` in an `ORDER BY` that SQLite's planner must not serve from an index on it (`+column`,
    /// SQLite's idiom): the rows come from another index, then are sorted. PostgreSQL plans by cost
    /// and has no unary `+` for text, so the column stays as it is.
    func notIndexed(_ column: String) -> String {
        switch self {
        case .sqlite: "+\(column)"
        case .postgres: column
        }
    }
}
