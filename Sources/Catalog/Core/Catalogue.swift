import Foundation
import Logging
internal import SystemPackage

/// The product catalogue: runs, captures, photos, barcode hits and products, in one SQLite file or
/// one PostgreSQL database (`CatalogueLocation`).
///
/// Safe to share between tasks: reads run concurrently, writes are serialised by the database.
/// Every method throws `CatalogError` for problems the user can fix; an unexpected failure of the
/// database itself comes as the database's message.
package final class Catalogue: Sendable {
    /// Where the catalogue is, for messages: the SQLite file's path as given (`:memory:` for
    /// `inMemory(logger:)`), or the PostgreSQL URL without its password.
    package let path: String
    /// Where the catalogue is.
    package let location: CatalogueLocation
    let store: any CatalogueStore
    let logger: Logger

    /// Opens the SQLite catalogue at `path`; see `init(_:create:logger:)`.
    package convenience init(path: String, create: Bool = true, logger: Logger) throws {
        try self.init(.sqlite(path: path), create: create, logger: logger)
    }

    /// Opens the catalogue at `location` and brings its schema up to date; with `create`, makes an
    /// empty one (for SQLite, and its folder) when there is none. A PostgreSQL database must exist;
    /// its tables are made by the first worker that opens it.
    ///
    /// Throws `CatalogError.notFound` when there is no catalogue and `create` is false,
    /// `CatalogError.notADatabase` for a file that is not SQLite, `CatalogError.cannotOpen` for a
    /// server that cannot be reached or refuses the login, and `CatalogError.newerSchema` for a
    /// catalogue made by a newer ingest.
    /// - Parameter waitSeconds: how long a PostgreSQL catalogue's operations wait for a server that
    ///   is away (restarting, the network down) before they fail.
    package convenience init(_ location: CatalogueLocation, create: Bool = true, waitSeconds: Double = 60, logger: Logger) throws {
        let name = location.displayName
        let store: any CatalogueStore
        switch location {
        case .sqlite(let path):
            if create {
                try Self.makeFolder(of: path)
            } else if !FileManager.default.fileExists(atPath: path) {
                throw CatalogError.notFound(path: path)
            }
            store = try Self.mappingOpenErrors(path: name) { try SQLiteStore(path: path) }
        case .postgres(let url):
            store = try Self.mappingOpenErrors(path: name) { try PostgresStore(url: url, waitSeconds: waitSeconds, logger: logger) }
            if !create, try Self.mappingOpenErrors(path: name, { try store.appliedMigrations() }).isEmpty {
                try? store.close()
                throw CatalogError.notFound(path: name)
            }
        }
        try self.init(store: store, location: location, logger: logger)
    }

    /// Creates the folder that will hold the database at `path`, with its parents.
    private static func makeFolder(of path: String) throws {
        let folder = FilePath(path).removingLastComponent().string
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            // Foundation's text would say "The operation could not be completed"; errno says why.
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EIO)
            throw CatalogError.cannotOpen(path: path, reason: Errno(rawValue: Int32(code)).description)
        }
    }

    /// An empty catalogue that lives in memory only, for tests.
    package static func inMemory(logger: Logger) throws -> Catalogue {
        try Catalogue(store: try SQLiteStore(), location: .sqlite(path: ":memory:"), logger: logger)
    }

    private init(store: any CatalogueStore, location: CatalogueLocation, logger: Logger) throws {
        self.store = store
        self.location = location
        path = location.displayName
        self.logger = logger
        do {
            try Self.mappingOpenErrors(path: path) { try migrate() }
        } catch {
            try? store.close()
            throw error
        }
    }

    /// Refuses a database with migrations this version does not know, then applies the missing ones.
    private func migrate() throws {
        let (new, unknown) = try store.migrate(known: Self.schemaVersions)
        guard unknown.isEmpty else {
            throw CatalogError.newerSchema(path: path, unknownMigrations: unknown)
        }
        if !new.isEmpty {
            logger.info("Migrated catalogue", metadata: ["database": "\(path)", "migrations": "\(new.joined(separator: ","))"])
        }
    }

    /// Runs `body`, turning the database's "cannot open" and "not a database" into `CatalogError`.
    private static func mappingOpenErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLError {
            switch error.kind {
            case .notADatabase: throw CatalogError.notADatabase(path: path)
            case .cannotOpen, .connectionLost: throw CatalogError.cannotOpen(path: path, reason: error.message)
            case .storage: throw CatalogError.storageFailed(path: path, reason: error.message)
            default: throw error
            }
        }
    }

    /// Closes the catalogue; later calls fail. Closing a SQLite catalogue's last connection makes
    /// SQLite checkpoint the write-ahead log into the database file and remove it, so that the
    /// file alone holds the whole catalogue. Every command closes on exit.
    package func close() throws {
        try store.close()
    }

    /// Records the start of an `ingest run` and returns it with its id. Throws
    /// `CatalogError.storageFailed` when the disk is full or failing.
    package func startRun(inbox: String, startedAt: String) throws -> Run {
        try mappingStorageErrors {
            try store.write { db in
                var run = Run(startedAt: startedAt, inbox: inbox)
                let encoded = try RowEncoder.encode(run, omitting: Run.generatedProperty)
                run.id = try db.scalar(Int64.self, Run.insertSQL(columns: encoded.columns) + " RETURNING id", encoded.values)
                return run
            }
        }
    }

    /// Stores a run's final counts and `finishedAt`; the run must come from `startRun(inbox:startedAt:)`.
    package func finishRun(_ run: Run) throws {
        let changed = try mappingStorageErrors {
            try store.write { db in
                try db.execute("""
                    UPDATE run SET finished_at = ?, sets = ?, captures = ?, photos = ?, duplicates = ?, quarantined = ?,
                                   failed = ?
                    WHERE id = ?
                    """, [run.finishedAt.sqlValue, run.sets.sqlValue, run.captures.sqlValue, run.photos.sqlValue,
                          run.duplicates.sqlValue, run.quarantined.sqlValue, run.failed.sqlValue, run.id.sqlValue])
            }
        }
        if changed == 0 { throw CatalogError.unknownRun(path: path) }
    }

    /// Runs the write `body`, turning a full or failing disk into `CatalogError.storageFailed` and
    /// a server out of reach into `CatalogError.unreachable`.
    func mappingStorageErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLError where error.kind == .storage {
            throw CatalogError.storageFailed(path: path, reason: error.message)
        } catch let error as SQLError where error.kind == .connectionLost {
            throw CatalogError.unreachable(path: path, reason: error.message)
        }
    }

    /// Runs `body` in a read-only snapshot of the catalogue.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try mappingStorageErrors { try store.read(body) }
    }

    /// Runs `body` in one write transaction.
    @discardableResult
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try mappingStorageErrors { try store.write(body) }
    }
}
