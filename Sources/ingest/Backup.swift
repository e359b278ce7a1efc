import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest backup FILE`: a consistent copy of the catalogue, taken while ingesting goes on.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copies the catalogue to a new file, consistently, even while a run or watch is writing.",
            discussion: """
                The copy is one snapshot of the catalogue (SQLite's VACUUM INTO; from PostgreSQL, a SQLite file copied from one snapshot), checked by opening it and \
                reading every page, flushed, then given its name: FILE is either a whole catalogue or absent. \
                It holds the rows, not the library's files. Exit codes: 0 copied; 1 FILE exists or the copy \
                failed; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The new file to write the copy to.")
        var file: String

        func run() throws {
            try withCommandContext(options) { context in
                let destination = PipelineConfig.resolve(file)
                do {
                    let counts = try context.catalogue.backup(to: destination)
                    if !options.quiet {
                        printEscaped("backed up \(counts.captures) captures, \(counts.photos) photos, \(counts.hits) barcode hits to \(destination)")
                    }
                } catch let error as CatalogError {
                    throw ExitCode.failure(saying: "\(error)")
                }
            }
        }
    }
}
