
/// The whole run, for the summary and the exit code.
package struct RunSummary: Sendable {
    package var sets: [SetReport] = []
    package var seconds = 0.0
    /// Set when the run stopped before the end (a full disk); the sets not reached stay in the inbox.
    package var stoppedEarly: String?
    /// Set when a stop was requested (a signal) before every set was reached; those stay in the inbox.
    package var interrupted = false
    /// The run's row in the catalogue: its captures' `run_id`.
    package var runId: Int64?

    package init() {}

    package var captures: Int { sets.reduce(0) { $0 + $1.captures } }
    package var photos: Int { sets.reduce(0) { $0 + $1.photos } }
    package var duplicates: [FileReport] { sets.flatMap(\.duplicates) }
    package var quarantined: [FileReport] { sets.flatMap(\.quarantined) }
    package var failed: [FileReport] { sets.flatMap(\.failed) }
    package var handedOver: [FileReport] { sets.flatMap(\.handedOver) }
    package var contextProblems: [FileReport] { sets.compactMap(\.contextProblem) }
    package var skipped: [FileReport] { sets.flatMap(\.skipped) }

    /// Nothing needs a human: no file quarantined, failed or skipped, every sidecar used, and the run
    /// reached the end. Sets handed over to another worker need none: that worker commits them.
    package var isClean: Bool {
        quarantined.isEmpty && failed.isEmpty && skipped.isEmpty && contextProblems.isEmpty && stoppedEarly == nil
    }
}
