/// What became of one set.
package struct SetReport: Sendable {
    package var name: String
    package var captures = 0
    package var photos = 0
    package var duplicates: [FileReport] = []
    package var quarantined: [FileReport] = []
    /// Files the set could not commit: they stay in the inbox for the next run.
    package var failed: [FileReport] = []
    /// Files of a set another worker took over while this one worked on it (this worker's claim
    /// lapsed, under load or a pause): they stay in the inbox for that worker, which commits them.
    /// Nothing is lost or doubled, and nothing needs a person: not a failure.
    package var handedOver: [FileReport] = []
    /// Hidden files, left in place without a word.
    package var ignored: [String] = []
    /// Names that are not UTF-8 and folders nested too deep: left in place, and reported.
    package var skipped: [FileReport] = []
    /// Photos catalogued from this very set and path by an earlier run in `copy` mode, skipped.
    package var alreadyCatalogued = 0
    /// The set's `capture.json` could not be used: the set was ingested without agent context and
    /// the sidecar left where it was.
    package var contextProblem: FileReport?
    package var seconds = 0.0

    package init(name: String) {
        self.name = name
    }

    /// What became of the set as a whole, as the log and the metrics name it.
    package enum Outcome: String, Sendable, CaseIterable {
        /// Done: every photo catalogued, a duplicate, or quarantined.
        case committed
        /// Some photos failed and wait in the inbox for the next look.
        case waiting
        /// Another worker took the set over and commits it.
        case handedOver = "handed_over"

        /// The log line of a set with this outcome.
        package var message: String {
            switch self {
            case .committed: "set committed"
            case .waiting: "set waiting"
            case .handedOver: "set handed over"
            }
        }
    }

    package var outcome: Outcome {
        !handedOver.isEmpty ? .handedOver : failed.isEmpty ? .committed : .waiting
    }

    /// A set's report before anything is done: what its listing found.
    init(of set: PhotoSet) {
        name = set.name
        ignored = set.ignored
        skipped = set.skipped
    }
}
