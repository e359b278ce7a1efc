
/// The whole run, for the summary and the exit code.
public struct RunSummary: Sendable {
    public var sets: [SetReport] = []
    public var seconds = 0.0
    /// Set when the run stopped before the end (a full disk); the sets not reached stay in the inbox.
    public var stoppedEarly: String?
    /// Set when a stop was requested (a signal) before every set was reached; those stay in the inbox.
    public var interrupted = false

    public init() {}

    public var captures: Int { sets.reduce(0) { $0 + $1.captures } }
    public var photos: Int { sets.reduce(0) { $0 + $1.photos } }
    public var duplicates: [FileReport] { sets.flatMap(\.duplicates) }
    public var quarantined: [FileReport] { sets.flatMap(\.quarantined) }
    public var failed: [FileReport] { sets.flatMap(\.failed) }
    public var handedOver: [FileReport] { sets.flatMap(\.handedOver) }
    public var contextProblems: [FileReport] { sets.compactMap(\.contextProblem) }
    public var skipped: [FileReport] { sets.flatMap(\.skipped) }

    /// Nothing needs a human: no file quarantined, failed or skipped, every sidecar used, and the run
    /// reached the end. Sets handed over to another worker need none: that worker commits them.
    public var isClean: Bool {
        quarantined.isEmpty && failed.isEmpty && skipped.isEmpty && contextProblems.isEmpty && stoppedEarly == nil
    }
}
