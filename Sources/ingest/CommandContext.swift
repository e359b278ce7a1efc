import ArgumentParser
import Catalog
import Foundation
import Imaging
import Logging
import Pipeline
import SystemPackage

/// What a command works with, opened from its options in this order and closed in the reverse:
/// the configuration (with `INGEST_CATALOG_URL` and the command line's overrides), logging, the
/// library's lock (when the command changes the library), the catalogue and, for a command that
/// ingests, this process's worker session. `withCommandContext` opens one around a command's work.
///
/// Exits 64 for a configuration problem, 75 when another ingest holds the library, and 1 when
/// there is no catalogue where one must be, with a message on standard error each time.
final class CommandContext: Sendable {
    /// What a command does, which decides what is opened for it.
    enum Access {
        /// Reads the catalogue, or corrects its rows (one transaction, beside `ingest watch`): the
        /// catalogue must exist, and no lock is taken.
        case catalogue
        /// Changes the library's files: its lock is taken before the catalogue, which must exist,
        /// is opened (and perhaps migrated), in the order `ingesting` takes them.
        case changingLibrary(LockOptions)
        /// Ingests the inbox, which must be a folder: the lock, then the catalogue (made when there
        /// is none), then a worker session that claims the sets.
        case ingesting(LockOptions)
    }

    let config: PipelineConfig
    let logger: Logger
    let catalogue: Catalogue
    /// This process as one of the catalogue's workers; only for `ingesting`.
    let worker: WorkerSession?
    /// None with a shared (PostgreSQL) catalogue: its workers share the library, each set claimed
    /// in the catalogue (an `flock` over NFS cannot be trusted anyway).
    private let libraryLock: LibraryLock?

    private init(config: PipelineConfig, logger: Logger, catalogue: Catalogue, worker: WorkerSession?, libraryLock: LibraryLock?) {
        self.config = config
        self.logger = logger
        self.catalogue = catalogue
        self.worker = worker
        self.libraryLock = libraryLock
    }

    /// Opens what `access` needs, each step undone when a later one fails.
    fileprivate static func open(_ options: CommonOptions, _ access: Access, progress: ProgressLine?) throws -> CommandContext {
        let (config, logger) = try configuration(options, progress: progress)
        if access.ingests {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: config.inbox.string, isDirectory: &isFolder), isFolder.boolValue else {
                throw ExitCode.validationFailure(
                    saying: "the inbox \(config.inbox) is not a folder (set \"inbox\" in the configuration or pass --inbox)")
            }
            // glibc's malloc setting, for the whole process, before the first photo.
            ImageLibraries.keepFreedBuffersForReuse(workers: config.workers)
        }
        if case .sqlite(let path) = config.catalogLocation, !access.ingests, !FileManager.default.fileExists(atPath: path) {
            throw noCatalogue(path, options, config)
        }
        let libraryLock = try access.lock.flatMap { try lockLibrary(config, wait: $0.wait, logger: logger) }
        do {
            let catalogue = try openCatalogue(config, logger: logger, creating: access.ingests, options)
            do {
                let worker = access.ingests
                    ? try WorkerSession.start(catalogue: catalogue, leaseSeconds: config.claimLeaseSeconds, logger: logger) : nil
                return CommandContext(config: config, logger: logger, catalogue: catalogue, worker: worker, libraryLock: libraryLock)
            } catch {
                try? catalogue.close()
                throw error
            }
        } catch {
            libraryLock?.release()
            throw error
        }
    }

    /// Ends the worker session, closes the catalogue and releases the lock.
    fileprivate func close() {
        worker?.end()
        try? catalogue.close()
        libraryLock?.release()
    }

    /// The configuration and logging alone, for a command that opens no catalogue (`explain`); the
    /// first steps of every context. Log lines go to standard error at the options' verbosity,
    /// escaped for a terminal or as JSON; with a `progress` line, text log lines are written above it.
    static func configuration(_ options: CommonOptions, progress: ProgressLine? = nil) throws
        -> (config: PipelineConfig, logger: Logger) {
        let config: PipelineConfig
        do {
            config = try pipelineConfig(options)
        } catch let error as ConfigError {
            throw ExitCode.validationFailure(saying: error.description)
        }
        let level: Logger.Level = options.quiet ? .error : options.verbose ? .info : .notice
        let format = options.logFormat
        LoggingSystem.bootstrap { label in
            if format == .json { return JSONLogHandler(label: label, logLevel: level) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return TerminalLogHandler(inner: handler, progress: progress)
        }
        return (config, Logger(label: "ingest"))
    }

    /// The configuration file with the command line's overrides applied (relative to the working
    /// folder). `INGEST_CATALOG_URL`, when set, is the catalogue instead of the file's (a URL with a
    /// password stays out of `pipeline.json`); `--catalog` overrides both.
    private static func pipelineConfig(_ options: CommonOptions) throws -> PipelineConfig {
        var result = try PipelineConfig.load(path: PipelineConfig.resolve(options.config))
        if let inbox = options.inbox { result.inbox = PipelineConfig.resolve(inbox) }
        if let library = options.library { result.library = PipelineConfig.resolve(library) }
        if let url = ProcessInfo.processInfo.environment["INGEST_CATALOG_URL"], !url.isEmpty {
            result.catalog = try catalogue(url, named: "INGEST_CATALOG_URL")
        }
        if let catalog = options.catalog { result.catalog = try catalogue(catalog, named: "--catalog") }
        if let quarantine = options.quarantine { result.quarantine = PipelineConfig.resolve(quarantine) }
        let problems = result.folderProblems
        guard problems.isEmpty else { throw ConfigError(file: PipelineConfig.resolve(options.config).string, messages: problems) }
        return result
    }

    /// `text` as the catalogue: a PostgreSQL URL libpq can read, or a path made absolute.
    private static func catalogue(_ text: String, named source: String) throws -> String {
        if let problem = CatalogueLocation(text).problem {
            throw ConfigError(file: source, message: "not a PostgreSQL URL libpq can read (\(problem))")
        }
        return CatalogueLocation.isURL(text) ? text : PipelineConfig.resolve(text).string
    }

    /// Takes the lock of the configuration's library. When another process holds it, waits (with
    /// `wait`) or exits 75 with a message naming the lock file and the holder. None with a shared
    /// catalogue.
    private static func lockLibrary(_ config: PipelineConfig, wait: Bool, logger: Logger) throws -> LibraryLock? {
        guard !config.catalogLocation.isShared else { return nil }
        do {
            return try LibraryLock.acquire(library: config.library, wait: wait) { holder in
                logger.notice("waiting for the library lock", metadata: [
                    "lock": "\(LibraryLock.path(library: config.library))",
                    "holder": "\(holder.map(String.init) ?? "unknown")",
                ])
            }
        } catch let error as LibraryLockError {
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
            throw ExitCode.libraryLocked
        }
    }

    /// The configuration's catalogue, made when `creating` (only the commands that ingest make one);
    /// otherwise it must exist, and without it the command exits 1 having made nothing.
    private static func openCatalogue(_ config: PipelineConfig, logger: Logger, creating: Bool, _ options: CommonOptions)
        throws -> Catalogue {
        do {
            return try Catalogue(config.catalogLocation, create: creating, waitSeconds: config.catalogWaitSeconds, logger: logger)
        } catch CatalogError.notFound(let path) {
            throw noCatalogue(path, options, config)
        }
    }

    /// Says on standard error that there is no catalogue at `path`, and where that path came from;
    /// the command then exits 1.
    private static func noCatalogue(_ path: String, _ options: CommonOptions, _ config: PipelineConfig) -> ExitCode {
        FileHandle.standardError.write(Data("""
            ingest: no catalogue at \(path) (\(catalogueSource(options, config))); run ingest run first, or pass --config or --catalog

            """.utf8))
        return .failure
    }

    /// Where the catalogue's path came from, for a message about it.
    private static func catalogueSource(_ options: CommonOptions, _ config: PipelineConfig) -> String {
        let file = PipelineConfig.resolve(options.config)
        if options.catalog != nil { return "given by --catalog" }
        if ProcessInfo.processInfo.environment["INGEST_CATALOG_URL"].map({ !$0.isEmpty }) == true { return "given by INGEST_CATALOG_URL" }
        if config.explicitCatalog != nil { return "the \"catalog\" of \(file)" }
        if options.library != nil { return "in the library given by --library" }
        return "in the \"library\" of \(file)"
    }
}

extension CommandContext.Access {
    /// Whether the command ingests: it makes the catalogue when there is none, and a worker session.
    fileprivate var ingests: Bool {
        if case .ingesting = self { return true }
        return false
    }

    /// How the library's lock is taken, when it is.
    fileprivate var lock: LockOptions? {
        switch self {
        case .catalogue: nil
        case .changingLibrary(let lock), .ingesting(let lock): lock
        }
    }
}

/// Runs `body` with what `access` needs opened from `options` (see `CommandContext`), and closes
/// it, in the reverse order, however `body` ends. `progress`, when the command draws one, keeps
/// log lines above it.
func withCommandContext<T>(_ options: CommonOptions, _ access: CommandContext.Access = .catalogue, progress: ProgressLine? = nil,
                           _ body: (CommandContext) throws -> T) throws -> T {
    let context = try CommandContext.open(options, access, progress: progress)
    defer { context.close() }
    return try body(context)
}

/// `withCommandContext` for a command that awaits (`serve`, `watch`).
func withCommandContext<T>(_ options: CommonOptions, _ access: CommandContext.Access = .catalogue, progress: ProgressLine? = nil,
                           _ body: (CommandContext) async throws -> T) async throws -> T {
    let context = try CommandContext.open(options, access, progress: progress)
    defer { context.close() }
    return try await body(context)
}
