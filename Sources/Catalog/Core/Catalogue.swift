import Foundation
import GRDB
import Logging

/// The product catalogue: one SQLite database of runs, captures, photos and barcode hits.
///
/// Safe to share between tasks: reads run concurrently, writes are serialised by GRDB.
/// Every method throws `CatalogError` for problems the user can fix, or GRDB's
/// `DatabaseError` for unexpected SQLite failures.
public final class Catalogue: Sendable {
    /// Where the database lives, as given to `init(path:logger:)`; `:memory:` for `inMemory(logger:)`.
    public let path: String
    let writer: any DatabaseWriter
    let logger: Logger

    /// Opens the catalogue at `path` and brings its schema up to date; with `create`, makes an empty
    /// one (and its folder) when there is none.
    ///
    /// Throws `CatalogError.notFound` when there is no catalogue and `create` is false,
    /// `CatalogError.notADatabase` for a file that is not SQLite and `CatalogError.newerSchema` for a
    /// catalogue made by a newer ingest.
    public convenience init(path: String, create: Bool = true, logger: Logger) throws {
        if create {
            try Self.makeFolder(of: path)
        } else if !FileManager.default.fileExists(atPath: path) {
            throw CatalogError.notFound(path: path)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // The pipeline commits while `ingest list` may be reading: wait rather than fail at once.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in db.add(function: Catalogue.foldFunction) }
        let pool = try Self.mappingOpenErrors(path: path) {
            try DatabasePool(path: path, configuration: configuration)
        }
        try self.init(writer: pool, path: path, logger: logger)
    }

    /// Creates the folder that will hold the database at `path`, with its parents.
    private static func makeFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            // Foundation's text would say "The operation could not be completed"; errno says why.
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EIO)
            throw CatalogError.cannotOpen(path: path, reason: String(cString: strerror(Int32(code))))
        }
    }

    /// An empty catalogue that lives in memory only, for tests.
    public static func inMemory(logger: Logger) throws -> Catalogue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: Catalogue.foldFunction) }
        return try Catalogue(writer: DatabaseQueue(configuration: configuration), path: ":memory:", logger: logger)
    }

    private init(writer: any DatabaseWriter, path: String, logger: Logger) throws {
        self.writer = writer
        self.path = path
        self.logger = logger
        try Self.mappingOpenErrors(path: path) { try migrate() }
    }

    /// Refuses a database with migrations this version does not know, then applies the missing ones.
    private func migrate() throws {
        let migrator = Self.migrator
        // Asked on the writer: a pool reader opened now would keep an outdated view of the schema
        // in PRAGMA results after the migration.
        let applied = try writer.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }
        let unknown = applied.subtracting(Self.schemaVersions)
        guard unknown.isEmpty else {
            throw CatalogError.newerSchema(path: path, unknownMigrations: unknown.sorted())
        }
        try migrator.migrate(writer)
        let new = Self.schemaVersions.filter { !applied.contains($0) }
        if !new.isEmpty {
            logger.info("Migrated catalogue", metadata: [
                "database": "\(path)", "migrations": "\(new.joined(separator: ","))",
            ])
        }
    }

    /// Runs `body`, turning SQLite's "cannot open" and "not a database" into `CatalogError`.
    private static func mappingOpenErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw CatalogError.notADatabase(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
            throw CatalogError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        } catch let error as DatabaseError where error.isStorageFailure {
            throw CatalogError.storageFailed(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Adds everything one set produced — its agent, captures, then photos, then hits — in one write transaction.
    ///
    /// Either all rows are written or none: a duplicate `sha256` or `original_path`, a photo of an
    /// unknown capture or a failed CHECK throws `CatalogError.commitFailed`, a full or failing disk
    /// `CatalogError.storageFailed`; either leaves the catalogue as it was.
    /// A known agent keeps its `firstSeen`; its name changes only when the set's captures carry one.
    public func commit(_ set: CommittedSet) throws {
        try commit(batch: [set])
        logger.debug("Committed set", metadata: [
            "set": "\(set.captures.first?.setName ?? "")", "captures": "\(set.captures.count)",
            "photos": "\(set.photos.count)", "hits": "\(set.hits.count)",
        ])
    }

    /// Adds many sets in one write transaction, all or none, as `commit(_:)` adds one: for bulk
    /// loads (a million captures in minutes), where a transaction per set would wait on the disk
    /// for each.
    public func commit(batch sets: [CommittedSet]) throws {
        do {
            try mappingStorageErrors {
                try writer.write { db in
                    for set in sets { try Self.insert(set, db) }
                }
            }
        } catch let error as DatabaseError {
            let first = sets.first?.captures.first?.setName ?? ""
            let name = sets.count > 1 ? "\(first) (and \(sets.count - 1) more sets of the batch)" : first
            throw CatalogError.commitFailed(path: path, setName: name, reason: error.message ?? "\(error)")
        }
    }

    /// The set's agent, captures, then photos, then hits.
    private static func insert(_ set: CommittedSet, _ db: Database) throws {
        if let agent = set.agent {
            try upsert(agent, named: set.captures.contains { $0.agentName != nil }, db)
        }
        // The names the set's captures are taken under, for `list --agent` (migration v4).
        var names: Set<[String]> = []
        for capture in set.captures {
            if let id = capture.agentId, let name = capture.agentName { names.insert([id, name]) }
        }
        for pair in names {
            try db.execute(sql: "INSERT OR IGNORE INTO agent_name (agent_id, name) VALUES (?, ?)",
                           arguments: StatementArguments(pair))
        }
        for capture in set.captures { try capture.insert(db) }
        for photo in set.photos { try photo.insert(db) }
        for var hit in set.hits { try hit.insert(db) }
    }

    private static func upsert(_ agent: Agent, named: Bool, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO agent (id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                name = CASE WHEN ? THEN excluded.name ELSE agent.name END,
                last_seen = excluded.last_seen
            """, arguments: [agent.id, agent.name, agent.firstSeen, agent.lastSeen, named])
    }

    /// Records the start of an `ingest run` and returns it with its id. Throws
    /// `CatalogError.storageFailed` when the disk is full or failing.
    public func startRun(inbox: String, startedAt: String) throws -> Run {
        try mappingStorageErrors {
            try writer.write { db in
                try Run(startedAt: startedAt, inbox: inbox).inserted(db)
            }
        }
    }

    /// Stores a run's final counts and `finishedAt`; the run must come from `startRun(inbox:startedAt:)`.
    public func finishRun(_ run: Run) throws {
        do {
            try mappingStorageErrors { try writer.write { db in try run.update(db) } }
        } catch RecordError.recordNotFound {
            throw CatalogError.unknownRun(path: path)
        }
    }

    /// Runs the write `body`, turning SQLite's "disk full" and I/O errors into `CatalogError.storageFailed`.
    func mappingStorageErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.isStorageFailure {
            throw CatalogError.storageFailed(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Runs `body` in a read-only snapshot of the catalogue.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.read(body)
    }
}

extension DatabaseError {
    /// SQLite reports a full disk as `SQLITE_FULL`, but a write refused for another reason (a file-size
    /// limit: EFBIG, a failing disk: EIO) as `SQLITE_IOERR`; neither heals by trying the next set.
    var isStorageFailure: Bool { resultCode == .SQLITE_FULL || resultCode == .SQLITE_IOERR }
}
