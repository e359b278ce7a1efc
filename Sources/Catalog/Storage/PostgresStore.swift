import Foundation
import Logging
import Synchronization

/// The catalogue in a PostgreSQL database, shared by any number of workers: a pool of libpq
/// connections, one lent to each read or write. Reads see one snapshot (`REPEATABLE READ READ
/// ONLY`); writes are `READ COMMITTED` transactions, retried when the server aborts one to break a
/// deadlock. A server that restarts or cannot be reached is waited for, up to `waitSeconds`.
final class PostgresStore: CatalogueStore {
    private let url: String
    private let logger: Logger
    /// How long an operation waits for an unreachable server before it fails.
    private let waitSeconds: Double
    /// Connections not lent out; at most `idleLimit` are kept.
    private let idle = Mutex<[PostgresConnection]>([])
    private static let idleLimit = 8
    var dialect: SQLDialect { .postgres }

    /// Connects once, so that a wrong URL, an unknown database or a refused login is reported at once.
    init(url: String, waitSeconds: Double, logger: Logger) throws {
        self.url = url
        self.waitSeconds = waitSeconds
        self.logger = logger
        let first = try PostgresConnection(url: url)
        idle.withLock { $0.append(first) }
    }

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// `bulk`: the transaction does not wait for its log to reach the disk (`synchronous_commit =
    /// off`), as SQLite's bulk writes do not (`synchronous = NORMAL`).
    func write<T>(bulk: Bool, _ body: (any SQLConnection) throws -> T) throws -> T {
        for attempt in 1 ... 5 {
            do {
                return try transaction(begin: bulk ? "BEGIN; SET LOCAL synchronous_commit = off" : "BEGIN", body)
            } catch let error as SQLError where error.kind == .conflict && attempt < 5 {
                logger.info("catalogue transaction retried", metadata: ["reason": "\(error.message)"])
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// Runs `body` in a transaction that `begin` opens, on a connection of the pool. A connection
    /// found broken at `begin` (the server restarted since it was last used) is replaced and the
    /// transaction begun again: nothing of it had happened. A break later throws `.connectionLost`,
    /// and then it is not known whether a `COMMIT` in flight was kept.
    private func transaction<T>(begin: String, _ body: (any SQLConnection) throws -> T) throws -> T {
        let connection = try begun(begin)
        do {
            let result = try body(connection)
            try connection.executeScript("COMMIT")
            giveBack(connection)
            return result
        } catch {
            if !connection.isBroken, (try? connection.executeScript("ROLLBACK")) != nil { giveBack(connection) }
            throw error
        }
    }

    /// A connection with a transaction begun by `begin`, waiting for the server when it is away.
    private func begun(_ begin: String) throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(waitSeconds)
        var warned = false
        while true {
            do {
                let connection = try idle.withLock { $0.popLast() } ?? PostgresConnection(url: url)
                try connection.executeScript(begin)
                if warned { logger.notice("catalogue reachable again", metadata: ["database": "\(CatalogueLocation.redacted(url))"]) }
                return connection
            } catch let error as SQLError where [.connectionLost, .cannotOpen].contains(error.kind) {
                guard Date() < deadline else { throw SQLError(kind: .connectionLost, message: error.message) }
                if !warned {
                    logger.warning("catalogue unreachable, waiting for it", metadata: [
                        "database": "\(CatalogueLocation.redacted(url))", "error": "\(error.message)", "seconds": "\(Int(waitSeconds))",
                    ])
                    warned = true
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// Returns a sound connection to the pool, or closes it when enough are idle.
    private func giveBack(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return }
        idle.withLock { if $0.count < Self.idleLimit { $0.append(connection) } }
    }

    /// The table of applied migrations, and the advisory lock migrations run under: the first of
    /// several workers starting at once migrates, the others wait and then find nothing to do.
    private static let migrationTable = "ingest_migrations"
    private static let migrationLock = 0x696E_6765_7374 // "ingest"

    func migrate(known: [String]) throws -> (applied: [String], unknown: [String]) {
        try write { db in
            _ = try db.scalar(String.self, "SELECT pg_advisory_xact_lock(?)::text", [Self.migrationLock.sqlValue])
            try db.executeScript("CREATE TABLE IF NOT EXISTS \(Self.migrationTable) (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try db.column(String.self, "SELECT identifier FROM \(Self.migrationTable)"))
            let unknown = applied.subtracting(known)
            guard unknown.isEmpty else { return ([], unknown.sorted()) }
            var new: [String] = []
            for (name, sql) in PostgresSchema.migrations where known.contains(name) && !applied.contains(name) {
                try db.executeScript(sql)
                try db.execute("INSERT INTO \(Self.migrationTable) (identifier) VALUES (?)", [name.sqlValue])
                new.append(name)
            }
            return (new, [])
        }
    }

    func appliedMigrations() throws -> Set<String> {
        try read { db in
            guard try db.scalar(String.self, "SELECT to_regclass(?)::text", [Self.migrationTable.sqlValue]) != nil else { return [] }
            return Set(try db.column(String.self, "SELECT identifier FROM \(Self.migrationTable)"))
        }
    }

    func close() throws {
        idle.withLock { $0.removeAll() }
    }
}
