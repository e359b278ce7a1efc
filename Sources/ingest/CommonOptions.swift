import ArgumentParser

/// Options every command shares: where the configuration is, overrides of its paths, and verbosity.
/// `CommandContext` reads them to open what the command works with.
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
}
