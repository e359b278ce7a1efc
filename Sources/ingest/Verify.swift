import ArgumentParser
import Foundation
import Pipeline

extension Ingest {
    /// `ingest verify`: does the library folder match the catalogue?
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks that the library folder and the catalogue match.",
            discussion: """
                Every catalogued original must be there with its SHA-256, every thumbnail with its recorded size, \
                and every file in the library must be catalogued. --quick compares sizes and modification times \
                instead of reading files; --sample N checks N photos picked at random and states how many of all \
                the photos may have a problem, with 95% confidence. --repair makes missing or wrong thumbnails anew \
                and moves unreferenced files to <quarantine>/unreferenced/ (it never deletes); a missing or changed \
                original cannot be repaired. Each problem is printed as it is found, the totals last. Exit codes: 0 the library matches, or was fully repaired; 1 something \
                is still wrong; 64 usage error; 75 another ingest holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Flag(help: "Make missing and wrong thumbnails anew and move unreferenced files to the quarantine.")
        var repair = false

        @Flag(help: "Compare sizes and modification times with the catalogue instead of reading the files.")
        var quick = false

        @Option(help: "Check only this many photos, picked at random, and say how sure that makes the whole.")
        var sample: Int?

        @Option(help: "Also report thumbnails that are not this many pixels wide (or as wide as their photo, when narrower); with --repair, make them anew at this width.")
        var width: Int?

        func validate() throws {
            if quick && sample != nil { throw ValidationError("--quick and --sample exclude each other.") }
            if let sample, sample < 1 { throw ValidationError("--sample must be 1 or more, got \(sample).") }
            if repair && sample != nil { throw ValidationError("--repair needs the whole check, not --sample.") }
            if let width, width < 1 { throw ValidationError("--width must be 1 or more, got \(width).") }
            if quick && width != nil { throw ValidationError("--width needs the thumbnails' sizes, which --quick does not read.") }
        }

        func run() throws {
            let progress = ProgressLine.onTerminal(quiet: options.quiet)
            let printer = LibraryReportPrinter(progress: progress, quiet: options.quiet)
            let report = try withCommandContext(options, .changingLibrary(lock), progress: progress) { context in
                let verifier = LibraryVerifier(config: context.config, catalogue: context.catalogue, logger: context.logger,
                                               thumbnailWidth: width) { progress?.update($0) }
                return try verifier.verify(quick ? .quick : sample.map { .sample($0) } ?? .full, repairing: repair,
                                           onProblem: printer.print)
            }
            progress?.finish()
            printer.finish(report)
            if !report.isClean { throw ExitCode.failure }
        }
    }
}
