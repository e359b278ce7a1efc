import ArgumentParser
import Catalog
import Foundation

extension Ingest {
    /// `ingest export`: the catalogue as CSV.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Exports the catalogue as CSV, one row per capture.")

        @OptionGroup var options: CommonOptions

        @Option(name: .customLong("csv"), help: "The CSV file to write, or - for standard output.")
        var csvPath: String

        func run() throws {
            let config = try Self.reportingUsageErrors { try options.loadConfig() }
            let logger = options.bootstrapLogging()
            let catalogue = try Catalogue(path: config.catalog, logger: logger)
            let rows = try CatalogueExporter(catalogue: catalogue).writeCSV(toPath: csvPath)
            if csvPath != "-" && !options.quiet {
                FileHandle.standardError.write(Data("exported \(rows) captures to \(csvPath)\n".utf8))
            }
        }
    }
}
