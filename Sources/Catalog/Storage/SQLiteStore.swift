import Foundation
import GRDB

/// The catalogue in one SQLite file (or in memory, for tests), through GRDB: a pool of reader
/// connections beside one writer, in WAL mode, with foreign keys on and the `ingest_fold` function
/// on every connection. Every write transaction ends by folding the searched text other SQLite
/// clients' writes left unfolded (`SearchSchema.refoldSQL`), as does opening a catalogue with any.
final class SQLiteStore: CatalogueStore {
    let writer: any DatabaseWriter
    let path: String
    var dialect: SQLDialect { .sqlite }

    /// Opens the database file at `path`, creating it when missing.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // The pipeline commits while `ingest list` may be reading: wait rather than fail at once.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in db.add(function: SQLiteStore.foldFunction) }
        self.path = path
        writer = try Self.mapping { try DatabasePool(path: path, configuration: configuration) }
    }

    /// An empty database that lives in memory only, for tests.
    init() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SQLiteStore.foldFunction) }
        path = ":memory:"
        writer = try DatabaseQueue(configuration: configuration)
    }

    /// `ingest_fold(text)`: `Catalogue.fold(_:)`, NULL for NULL.
    static let foldFunction = DatabaseFunction("ingest_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(Catalogue.fold)
    }

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try Self.mapping { try writer.read { db in try body(SQLiteConnection(db)) } }
    }

    /// How bulk writes run. 32 MB of page cache: a dump's random codes land all over the index,
    /// and SQLite's default 8 MB sends most of a big import's inserts to the disk. A checkpoint
    /// every 64 MB of log rather than 4 MB: pages rewritten by batch after batch reach the database
    /// file once per checkpoint. `synchronous = NORMAL`, the usual setting for WAL: a commit does
    /// not wait for the disk.
    private static let bulkWriteSettings = """
        PRAGMA cache_size = -32768; PRAGMA wal_autocheckpoint = 16384; PRAGMA synchronous = NORMAL
        """

    func write<T>(bulk: Bool, _ body: (any SQLConnection) throws -> T) throws -> T {
        try Self.mapping {
            try writer.writeWithoutTransaction { db in
                // Outside the transaction: SQLite refuses to change `synchronous` inside one.
                if bulk { try db.execute(sql: Self.bulkWriteSettings) }
                var result: T?
                try db.inTransaction {
                    result = try body(SQLiteConnection(db))
                    // The searched text the triggers could not fold in SQL (`SearchSchema.sqliteFoldInSQL`).
                    try db.cachedStatement(sql: SearchSchema.refoldSQL).execute()
                    return .commit
                }
                return result!
            }
        }
    }

    func migrate(known: [String]) throws -> (applied: [String], unknown: [String]) {
        let migrator = Catalogue.migrator
        return try Self.mapping {
            // Asked on the writer: a pool reader opened now would keep an outdated view of the
            // schema in PRAGMA results after the migration.
            let applied = try writer.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }
            let unknown = applied.subtracting(known)
            guard unknown.isEmpty else { return ([], unknown.sorted()) }
            try migrator.migrate(writer)
            // What another SQLite client wrote since ingest last did, folded now.
            if try writer.read({ db in try Bool.fetchOne(db, sql: SearchSchema.hasUnfoldedSQL) }) == true {
                try writer.write { db in try db.execute(sql: SearchSchema.refoldSQL) }
            }
            return (known.filter { !applied.contains($0) }, [])
        }
    }

    func appliedMigrations() throws -> Set<String> {
        try Self.mapping { try writer.read { db in try Catalogue.migrator.appliedIdentifiers(db) } }
    }

    func close() throws {
        // SQLite folds the write-ahead log back into the file, and removes it, when the last
        // connection closes, but only if that one may write: a reader (opened read-only) cannot take
        // the lock, and closing last it left `-wal` beside a stale file. The readers close first.
        (writer as? DatabasePool)?.releaseMemory()
        try writer.close()
    }

    /// Writes a copy of the database into the new file `path` from one read snapshot (`VACUUM INTO`).
    func vacuum(into path: String) throws {
        try Self.mapping { try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) } }
    }

    /// Runs `body`, turning GRDB's `DatabaseError` into `SQLError`.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw SQLError(error)
        }
    }
}

extension SQLError {
    /// The kind of SQLite's error, and its message (`UNIQUE constraint failed: photo.sha256`).
    init(_ error: DatabaseError) {
        let message = error.message ?? "\(error.resultCode)"
        let kind: Kind = switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            .unique(column: message.components(separatedBy: ": ").last?.components(separatedBy: ", ").first)
        case .SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL: .check
        case .SQLITE_CONSTRAINT_FOREIGNKEY: .foreignKey
        default:
            switch error.resultCode {
            // SQLite reports a full disk as `SQLITE_FULL`, but a write refused for another reason
            // (a file-size limit: EFBIG, a failing disk: EIO) as `SQLITE_IOERR`; neither heals by
            // trying the next set.
            case .SQLITE_FULL, .SQLITE_IOERR: .storage
            case .SQLITE_NOTADB: .notADatabase
            case .SQLITE_CANTOPEN: .cannotOpen
            default: .other
            }
        }
        self.init(kind: kind, message: message)
    }
}
