import ArgumentParser
import Catalog
import Foundation
import SystemPackage
import Views
import Pipeline

extension Ingest {
    /// `ingest export`: the catalogue as CSV, or as web pages to open without a server.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Exports the catalogue as CSV (one row per capture) or as static web pages (--html).",
            discussion: """
                --html DIR writes the catalogue's pages and a page per capture, with relative links and the \
                thumbnails linked or copied beside them, to open from file:// or put on any web server. DIR must \
                be new, empty, or an earlier export. Exit codes: 0 written; 1 the catalogue or DIR cannot be used; \
                64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(name: .customLong("csv"), help: "The CSV file to write, or - for standard output.")
        var csvPath: String?

        @Option(name: .customLong("html"), help: "The folder to write the web pages into.")
        var htmlFolder: String?

        @Option(help: "Only captures taken from this day (YYYY-MM-DD, UTC) or ISO 8601 time on (CSV only).")
        var since: TimeBound?

        @Flag(help: "Writes every CSV cell as stored, also one a spreadsheet would run as a formula (starting with = + - @).")
        var rawCells = false

        func validate() throws {
            guard (csvPath == nil) != (htmlFolder == nil) else { throw ValidationError("give --csv FILE or --html DIR.") }
            if htmlFolder != nil && since != nil { throw ValidationError("--since filters the CSV export only.") }
            if htmlFolder != nil && rawCells { throw ValidationError("--raw-cells is for the CSV export only.") }
        }

        func run() throws {
            try withCommandContext(options) { context in
                if let htmlFolder {
                    let written = try StaticExport(catalogue: context.catalogue, library: context.config.library, logger: context.logger)
                        .write(to: FilePath(htmlFolder))
                    if !options.quiet {
                        let pages = written.pages == 1 ? "1 page" : "\(written.pages) pages"
                        FileHandle.standardError.write(Data("""
                            exported \(written.captures) captures (\(pages), \(written.thumbnails) thumbnails) to \(htmlFolder); \
                            open \(FilePath(htmlFolder).appending("index.html"))

                            """.utf8))
                    }
                    return
                }
                guard let csvPath else { return }
                let rows = try CatalogueExporter(catalogue: context.catalogue, rawCells: rawCells).writeCSV(toPath: FilePath(csvPath), since: since?.seconds)
                if csvPath != "-" && !options.quiet {
                    FileHandle.standardError.write(Data("exported \(rows) captures to \(csvPath)\n".utf8))
                }
            }
        }
    }
}
