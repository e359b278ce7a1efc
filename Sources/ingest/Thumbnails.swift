import ArgumentParser
import Foundation
import Pipeline

extension Ingest {
    /// `ingest thumbnails`: thumbnails made anew from the originals.
    struct Thumbnails: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Makes thumbnails anew from the originals in the library.",
            discussion: "Each thumbnail is replaced atomically; one that cannot be made is printed as it fails, the totals last. Exit codes: 0 all made; 1 some failed; 64 usage error; 75 another ingest holds the library."
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Flag(help: "Remake every thumbnail.")
        var regenerate = false

        @Flag(help: "Make only the thumbnails missing from the library.")
        var missing = false

        @Option(help: "The width in pixels (16…4096), recorded in the catalogue; by default the configuration's thumbnailWidth, or with --missing each photo's recorded width.")
        var width: Int?

        func validate() throws {
            guard regenerate != missing else { throw ValidationError("Pass exactly one of --regenerate and --missing.") }
            if let width, !(16...4096).contains(width) { throw ValidationError("--width must be 16…4096, got \(width).") }
        }

        func run() throws {
            let progress = ProgressLine.onTerminal(quiet: options.quiet)
            let printFailure = { (failure: FileReport) in ProgressLine.printFailure(failure, on: progress) }
            let report = try withCommandContext(options, .changingLibrary(lock), progress: progress) { context in
                let milestones = progress == nil ? ProgressMilestones(logger: context.logger) : nil
                let thumbnailer = Thumbnailer(config: context.config, catalogue: context.catalogue, logger: context.logger) { update in
                    progress?.update(update)
                    milestones?.record(update)
                }
                return regenerate
                    ? try thumbnailer.regenerateThumbnails(width: width, onFailure: printFailure)
                    : try thumbnailer.makeMissingThumbnails(width: width, onFailure: printFailure)
            }
            progress?.finish()
            if !options.quiet || report.failed > 0 {
                print("thumbnails made \(report.made), failed \(report.failed), seconds \(String(format: "%.1f", report.seconds))")
            }
            if report.failed > 0 { throw ExitCode.failure }
        }
    }
}
