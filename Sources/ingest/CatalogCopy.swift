import ArgumentParser
import Catalog
import Foundation
import Pipeline
import SystemPackage

extension Ingest {
    /// `ingest catalog`: the catalogue itself, as opposed to what it holds.
    struct CatalogCommands: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "catalog",
            abstract: "Moves the catalogue between SQLite and PostgreSQL.",
            subcommands: [Copy.self]
        )
    }

    /// `ingest catalog copy --to DESTINATION`: every row of the catalogue into an empty one.
    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copies the catalogue into an empty one: SQLite into PostgreSQL, or back.",
            discussion: """
                The configuration's catalogue (or --catalog, or INGEST_CATALOG_URL) is read from one snapshot \
                and written into DESTINATION in one transaction, every id kept; then each table's rows are \
                counted and checksummed on both sides. DESTINATION is a postgresql:// URL (the database must \
                exist) or a SQLite file; it must hold no rows. Stop the workers first: rows committed during \
                the copy are not in it. Exit codes: 0 copied and verified; 1 the destination is not empty, \
                cannot be opened, or differs; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "The catalogue to copy into: a postgresql:// URL or a SQLite file.")
        var to: String

        func run() throws {
            try withCommandContext(options) { context in
                let source = context.catalogue
                let location = CatalogueLocation(CatalogueLocation.isURL(to) ? to : PipelineConfig.resolve(to).string)
                if let problem = location.problem { throw ValidationError("--to is not a PostgreSQL URL libpq can read (\(problem)).") }
                do {
                    let destination = try Catalogue(location, waitSeconds: context.config.catalogWaitSeconds, logger: context.logger)
                    defer { try? destination.close() }
                    let report = try source.copy(to: destination)
                    guard !options.quiet else { return }
                    printEscaped("copied \(source.path) to \(destination.path); row counts and checksums equal")
                    for table in report.tables {
                        printEscaped("  " + table.name.padding(toLength: 12, withPad: " ", startingAt: 0)
                            + String(format: "%10d  ", table.rows) + table.checksum)
                    }
                } catch let error as CatalogError {
                    throw ExitCode.failure(saying: "\(error)")
                }
            }
        }
    }
}
