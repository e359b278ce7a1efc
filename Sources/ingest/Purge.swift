import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest purge`: the files of deleted captures, removed for good.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Removes the files deleted captures kept for their undo; those deletes can no longer be undone.",
            discussion: """
                The catalogue lets the files go first, in one transaction, then they are removed; should ingest \
                stop in between, ingest verify --repair sets the files left behind aside. Exit codes: 0 purged; \
                1 a file could not be removed; 64 usage error; 75 another ingest holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Option(help: "Only deletes made before this day (YYYY-MM-DD, UTC) or ISO 8601 time.")
        var before: TimeBound?

        func run() throws {
            let cutoff = before.map { Corrector.now(Date(timeIntervalSince1970: $0.seconds)) }
            let purge = try withCommandContext(options, .changingLibrary(lock)) { context in
                let purger = HeldFilePurger(config: context.config, catalogue: context.catalogue, logger: context.logger)
                return try purger.purge(madeBefore: cutoff) {
                    print("left in the library: \(TerminalText.escaped($0.path)): \(TerminalText.escaped($0.reason))")
                }
            }
            if !options.quiet { print("purged \(purge.removed) files of deleted captures") }
            if purge.left > 0 { throw ExitCode.failure }
        }
    }
}
