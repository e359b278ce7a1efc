import ArgumentParser
import Catalog
import Foundation
import Logging
import Pipeline

/// Options every command shares: where the configuration is, overrides of its paths, and verbosity.
struct CommonOptions: ParsableArguments {
    @Option(help: "The pipeline configuration file.")
    var config = "pipeline.json"

    @Option(help: "The inbox folder, instead of the configuration's.")
    var inbox: String?

    @Option(help: "The library folder, instead of the configuration's.")
    var library: String?

    @Option(help: "The catalogue: a SQLite file or a postgresql:// URL, instead of the configuration's (and INGEST_CATALOG_URL's).")
    var catalog: String?

    @Option(help: "The quarantine folder, instead of the configuration's.")
    var quarantine: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also log every file set aside, and other details.")
    var verbose = false

    @Option(help: "How log lines are written to standard error: text, or json (one object a line, for a log collector).")
    var logFormat: LogFormat = .text

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose exclude each other.") }
    }

    /// The configuration file with the command-line overrides applied (relative to the working
    /// folder). `INGEST_CATALOG_URL`, when set, is the catalogue instead of the file's (a URL
    /// with a password stays out of `pipeline.json`); `--catalog` overrides both.
    func pipelineConfig() throws -> PipelineConfig {
        let here = FileManager.default.currentDirectoryPath
        var result = try PipelineConfig.load(path: PipelineConfig.resolve(config, against: here))
        if let inbox { result.inbox = PipelineConfig.resolve(inbox, against: here) }
        if let library { result.library = PipelineConfig.resolve(library, against: here) }
        if let url = ProcessInfo.processInfo.environment["INGEST_CATALOG_URL"], !url.isEmpty {
            result.catalog = try Self.catalogue(url, named: "INGEST_CATALOG_URL", here: here)
        }
        if let catalog { result.catalog = try Self.catalogue(catalog, named: "--catalog", here: here) }
        if let quarantine { result.quarantine = PipelineConfig.resolve(quarantine, against: here) }
        return result
    }

    /// `text` as the catalogue: a PostgreSQL URL libpq can read, or a path made absolute.
    private static func catalogue(_ text: String, named source: String, here: String) throws -> String {
        if let problem = CatalogueLocation(text).problem {
            throw ConfigError(file: source, message: "not a PostgreSQL URL libpq can read (\(problem))")
        }
        return CatalogueLocation.isURL(text) ? text : PipelineConfig.resolve(text, against: here)
    }

    /// Sends log lines to standard error at the chosen verbosity, escaped for a terminal or as JSON
    /// (`--log-format`); only the executable does this. With a `progress` line, text log lines are
    /// written above it.
    func bootstrapLogging(progress: ProgressLine? = nil) -> Logger {
        let level: Logger.Level = quiet ? .error : verbose ? .info : .notice
        let format = logFormat
        LoggingSystem.bootstrap { label in
            if format == .json { return JSONLogHandler(label: label, logLevel: level) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return TerminalLogHandler(inner: handler, progress: progress)
        }
        return Logger(label: "ingest")
    }

    /// What most commands start with: the configuration (its problems exit 64), logging, and the
    /// catalogue, which must exist: only `run` and `watch` make one. Without it the command exits 1
    /// and, having created nothing, leaves the folder as it was.
    func openCatalogue(progress: ProgressLine? = nil) throws -> (config: PipelineConfig, logger: Logger, catalogue: Catalogue) {
        let config = try Ingest.reportingUsageErrors { try loadConfig() }
        let logger = bootstrapLogging(progress: progress)
        return (config, logger, try existingCatalogue(config, logger: logger))
    }

    /// As `openCatalogue`, for the commands that change the library: the library's lock is taken
    /// before the catalogue is opened (and perhaps migrated), in the order `run` takes them, so
    /// nothing is written while another ingest holds the library.
    func openCatalogue(progress: ProgressLine? = nil, locking lock: LockOptions) throws
        -> (config: PipelineConfig, logger: Logger, catalogue: Catalogue, libraryLock: LibraryLock?) {
        let config = try Ingest.reportingUsageErrors { try loadConfig() }
        let logger = bootstrapLogging(progress: progress)
        if case .sqlite(let path) = config.catalogLocation, !FileManager.default.fileExists(atPath: path) {
            throw noCatalogue(path, config)
        }
        let libraryLock = try lock.lockLibrary(config, logger: logger)
        do {
            return (config, logger, try existingCatalogue(config, logger: logger), libraryLock)
        } catch {
            libraryLock?.release()
            throw error
        }
    }

    /// The configuration's catalogue, opened without creating it.
    private func existingCatalogue(_ config: PipelineConfig, logger: Logger) throws -> Catalogue {
        do {
            return try Catalogue(config.catalogLocation, create: false, waitSeconds: config.catalogWaitSeconds, logger: logger)
        } catch CatalogError.notFound(let path) {
            throw noCatalogue(path, config)
        }
    }

    /// Says on standard error that there is no catalogue at `path`, and where that path came from;
    /// the command then exits 1.
    private func noCatalogue(_ path: String, _ config: PipelineConfig) -> ExitCode {
        FileHandle.standardError.write(Data("""
            ingest: no catalogue at \(path) (\(catalogueSource(config))); run ingest run first, or pass --config or --catalog

            """.utf8))
        return ExitCode(1)
    }

    /// Where the catalogue's path came from, for a message about it.
    private func catalogueSource(_ config: PipelineConfig) -> String {
        let file = PipelineConfig.resolve(self.config, against: FileManager.default.currentDirectoryPath)
        if catalog != nil { return "given by --catalog" }
        if ProcessInfo.processInfo.environment["INGEST_CATALOG_URL"].map({ !$0.isEmpty }) == true { return "given by INGEST_CATALOG_URL" }
        if config.explicitCatalog != nil { return "the \"catalog\" of \(file)" }
        if library != nil { return "in the library given by --library" }
        return "in the \"library\" of \(file)"
    }

    /// Loads the configuration, turning its problems into usage errors (exit 64).
    func loadConfig() throws -> PipelineConfig {
        do {
            return try pipelineConfig()
        } catch let error as ConfigError {
            throw UsageError(message: error.description)
        }
    }
}

extension ParsableCommand {
    /// Refuses an id prefix too short to mean one capture (an empty one would match them all).
    static func validateIdPrefix(_ id: String, option: String = "ID") throws {
        guard id.count >= Catalogue.minimumIdPrefixLength else {
            throw ValidationError("\(option) must be at least \(Catalogue.minimumIdPrefixLength) characters of a capture's id (see ingest list), got '\(id)'.")
        }
    }

    /// The capture `lookUp` finds for the id prefix `id`; when there is none, or the prefix is
    /// ambiguous, says so on standard error and exits 1.
    static func requiringCapture<T>(_ id: String, _ lookUp: () throws -> T?) throws -> T {
        do {
            if let found = try lookUp() { return found }
            FileHandle.standardError.write(Data("ingest: no capture id starts with '\(id)'; see ingest list.\n".utf8))
        } catch let error as CatalogError {
            guard case .ambiguousId = error else { throw error }
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
        }
        throw ExitCode(1)
    }

    /// Runs `body`, mapping usage problems to exit 64 with their message on standard error.
    static func reportingUsageErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as UsageError {
            let lines = error.message.split(separator: "\n").map { "ingest: \($0)\n" }
            FileHandle.standardError.write(Data(lines.joined().utf8))
            throw ExitCode(64)
        }
    }
}
