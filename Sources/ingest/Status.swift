import ArgumentParser
import Foundation
import Pipeline

extension Ingest {
    /// `ingest status`: whether a run or watch could do its work now, as `/readyz` answers it.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks that the catalogue answers, the library is writable, the inbox readable and the disk above minFreeMB.",
            discussion: """
                The checks `ingest serve` answers at /readyz, for a monitoring script or a person. Exit codes: \
                0 ready; 1 a check failed, or there is no catalogue; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Flag(help: "Print the checks as JSON: ready, and each check's name, ok and detail.")
        var json = false

        func run() throws {
            try withCommandContext(options) { context in
                let readiness = Readiness(config: context.config, catalogue: context.catalogue)
                if json {
                    try printJSON(readiness)
                } else {
                    let width = readiness.checks.map(\.name.count).max() ?? 0
                    printEscaped((readiness.ready ? "ready" : "NOT READY") + "\n" + readiness.checks.map { check in
                        "  " + check.name.padding(toLength: width, withPad: " ", startingAt: 0) + (check.ok ? "  ok    " : "  FAIL  ") + check.detail
                    }.joined(separator: "\n"))
                }
                if !readiness.ready { throw ExitCode.failure }
            }
        }
    }
}
