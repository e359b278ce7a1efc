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

        @Option(help: "Only captures taken from this day (YYYY-MM-DD, UTC) or ISO 8601 time on.")
        var since: TimeBound?

        func run() throws {
            let (_, _, catalogue) = try options.openCatalogue()
            defer { try? catalogue.close() }
            let rows = try CatalogueExporter(catalogue: catalogue).writeCSV(toPath: csvPath, since: since?.seconds)
            if csvPath != "-" && !options.quiet {
                FileHandle.standardError.write(Data("exported \(rows) captures to \(csvPath)\n".utf8))
            }
        }
    }
}
