import ArgumentParser
import Foundation
import Pipeline

extension Ingest.Products {
    /// `ingest products import FILE`: an Open Food Facts dump into the catalogue's products.
    struct ImportDump: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Imports an Open Food Facts dump (CSV export or JSONL, optionally gzipped) into the catalogue.",
            discussion: """
                The format is told from the file's bytes, not its name. Malformed lines are counted and \
                skipped (--strict: the first one stops the import). Products are written 10,000 to a \
                transaction: an import that stops early keeps the batches before it, and importing the file \
                again finishes the job. A file that is not a dump changes nothing. Rows entered with \
                ingest products set are kept unless --replace-manual is given. Exit codes: 0 imported; 1 the \
                file could not be read, is not a dump, or the import stopped early; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The dump: en.openfoodfacts.org.products.csv or openfoodfacts-products.jsonl, optionally .gz.")
        var file: String

        @Flag(help: "Stop at the first malformed line instead of skipping it.")
        var strict = false

        @Flag(help: "Store only the products whose barcode a catalogued capture has.")
        var onlyCatalogued = false

        @Flag(help: "Overwrite products entered with ingest products set too.")
        var replaceManual = false

        func run() throws {
            let progress = ProgressLine.onTerminal(quiet: options.quiet)
            try withCommandContext(options, progress: progress) { context in
                let path = PipelineConfig.resolve(file)
                let importer = ProductImport(
                    catalogue: context.catalogue, options: ProductImportOptions(strict: strict, onlyCatalogued: onlyCatalogued,
                                                                                replaceManual: replaceManual),
                    logger: context.logger) { update in progress?.show(Self.describe(update)) }
                let report: ProductImportReport
                do {
                    report = try importer.run(path: path)
                } catch let error as ProductImportError {
                    progress?.finish()
                    throw ExitCode.failure(saying: "\(error)")
                }
                progress?.finish()
                if !options.quiet || report.failure != nil { printEscaped(Self.summary(report), terminator: "") }
                if let failure = report.failure {
                    throw ExitCode.failure(saying: "\(failure)")
                }
            }
        }

        /// `products 41% (1.2 GB of 2.9 GB)  1,204,000 rows  118 MB/s  0:25 left`.
        static func describe(_ progress: ProductImportProgress) -> String {
            let done = Double(progress.fileBytesDone), total = Double(max(progress.fileBytesTotal, 1))
            var parts = [String(format: "products %.0f%% (%@ of %@)", 100 * done / total,
                                ByteCountFormatter.string(fromByteCount: progress.fileBytesDone, countStyle: .file),
                                ByteCountFormatter.string(fromByteCount: progress.fileBytesTotal, countStyle: .file)),
                         "\(progress.rows) rows"]
            if progress.elapsed > 0, done > 0 {
                parts.append(String(format: "%.0f MB/s of the file", done / 1e6 / progress.elapsed))
                let seconds = Int((progress.elapsed * (total - done) / done).rounded(.up))
                parts.append(String(format: "%d:%02d left", seconds / 60, seconds % 60))
            }
            return parts.joined(separator: "  ")
        }

        /// The lines printed after an import, as `run` prints its summary.
        static func summary(_ report: ProductImportReport) -> String {
            var lines = [
                "rows \(report.rowsRead), products stored \(report.stored), kept \(report.kept), "
                    + "not catalogued \(report.notCatalogued), skipped \(report.skippedTotal), "
                    + String(format: "seconds %.1f, %.0f MB/s (%@)", report.seconds, report.megabytesPerSecond, report.format),
            ]
            if !report.skipped.isEmpty {
                lines.append("skipped:")
                lines += report.skipped.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
