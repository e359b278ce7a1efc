import ArgumentParser
import Foundation
import Pipeline

extension Ingest {
    /// `ingest text`: reads the words on every catalogued photo that has none yet.
    struct Text: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reads the words on the catalogued photos that have not been read yet.",
            discussion: """
                Each photo's words are stored as soon as it is read: stopped at any point, the next \
                `ingest text` goes on from there and reads no photo twice. A photo that cannot be read \
                (over textSeconds, its original missing) is printed with the reason and not tried again \
                (but with --redo after a change of textLanguages). Exit codes: 0 every photo read; 1 some \
                were given up; 64 usage or configuration error (as text off, or a language not installed).
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "Photos read at once; by default the configuration's workers.")
        var workers: Int?

        @Flag(help: "Also read again the photos read (or given up) in other languages than textLanguages.")
        var redo = false

        func validate() throws {
            if let workers, !(1...256).contains(workers) { throw ValidationError("--workers must be 1…256, got \(workers).") }
        }

        func run() throws {
            let progress = ProgressLine.onTerminal(quiet: options.quiet || options.logFormat == .json)
            let printFailure = { (failure: FileReport) in ProgressLine.printFailure(failure, on: progress) }
            let report = try withCommandContext(options, .catalogue, progress: progress) { context in
                guard context.config.text.isOn else {
                    throw ValidationError("the configuration sets \"text\": \"off\"; set it \"on\" to read text")
                }
                var config = context.config
                if let workers { config.workers = workers }
                let reader = TextReader(config: config, catalogue: context.catalogue, logger: context.logger) { progress?.update($0) }
                let signals = StopSignals(graceSeconds: 10, logger: context.logger) { reader.requestStop() }
                defer { withExtendedLifetime(signals) {} }
                return try reader.readAll(redo: redo, onFailure: printFailure)
            }
            progress?.finish()
            if !options.quiet || report.givenUp > 0 { print(TextReportLine(report).text) }
            if report.givenUp > 0 { throw ExitCode.failure }
        }
    }
}

/// The one line that says what a reading of text did.
struct TextReportLine {
    var report: TextReport

    init(_ report: TextReport) { self.report = report }

    var text: String {
        let stopped = report.stopped ? " (stopped: run `ingest text` to go on)" : ""
        return "text read on \(report.photos) photos, words \(report.words), given up \(report.givenUp), "
            + "seconds \(String(format: "%.1f", report.elapsed))\(stopped)"
    }
}
