import ArgumentParser
import Catalog
import Foundation
import SystemPackage
import Pipeline
import Logging

extension Ingest {
    /// `ingest run`: one sweep of the inbox.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ingests every photo set in the inbox into the catalogue.",
            discussion: """
                Exit codes: 0 all good, also when files were set aside as duplicates of photos already \
                catalogued (the summary lists them); 1 files were quarantined as unusable, skipped or not \
                committed, or the run stopped early for lack of space; 64 usage or configuration error; 75 \
                another ingest run or watch holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Option(help: "A file to write the run's metrics to when it ends, in Prometheus' text format (for node_exporter's textfile collector).")
        var metricsFile: String?

        @Flag(help: "Do not read the words on the photos committed (by default they are read after the last set; `ingest text` reads them later).")
        var noText = false

        func validate() throws {
            guard let metricsFile else { return }
            let parent = FilePath(metricsFile).removingLastComponent()
            let folder = parent.isEmpty ? "." : parent.string
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--metrics-file: \(folder) is not a folder.")
            }
            if FileManager.default.fileExists(atPath: metricsFile, isDirectory: &isFolder), isFolder.boolValue {
                throw ValidationError("--metrics-file: \(metricsFile) is a folder; name the file to write inside it.")
            }
        }

        func run() throws {
            let exporter = metricsFile.map { _ in MetricsExporter.bootstrap() }
            let progress = ProgressLine.onTerminal(quiet: options.quiet || options.logFormat == .json)
            try withCommandContext(options, .ingesting(lock), progress: progress) { context in
                let run = IngestRun(config: context.config, catalogue: context.catalogue, logger: context.logger,
                                    worker: context.worker) { progress?.update($0) }
                let summary = try run.run()
                progress?.finish()
                if let exporter, let metricsFile {
                    ServiceGauges.refresh(config: context.config, catalogue: context.catalogue)
                    try exporter.write(to: FilePath(metricsFile))
                }
                if options.logFormat == .json { context.logger.notice("run finished", metadata: summary.logMetadata) }
                if !options.quiet || !summary.isClean {
                    printEscaped(SummaryPrinter(summary: summary, config: context.config).text, terminator: "")
                }
                if context.config.text.isOn, !noText, !summary.interrupted, summary.photos > 0 {
                    try readText(of: summary, context, progress: progress)
                }
                if !summary.isClean { throw ExitCode.failure }
            }
        }

        /// Reads the words on the photos the run committed, once its sets are all in: the catalogue
        /// is complete before the first word is read. A photo given up is reported, not a failure
        /// of the run (`ingest text` tells it again).
        private func readText(of summary: RunSummary, _ context: CommandContext, progress: ProgressLine?) throws {
            let reader = TextReader(config: context.config, catalogue: context.catalogue, logger: context.logger) { progress?.update($0) }
            let report = try reader.readAll(runId: summary.runId) { failure in
                ProgressLine.printFailure(failure, prefix: "text of ", on: progress)
            }
            progress?.finish()
            if options.logFormat == .json {
                context.logger.notice("text read", metadata: ["photos": "\(report.photos)", "words": "\(report.words)",
                                                              "givenUp": "\(report.givenUp)"])
            } else if !options.quiet {
                print(TextReportLine(report).text)
            }
        }
    }
}
