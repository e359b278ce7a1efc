import Synchronization

/// What the writer has done so far, shared with the loop that feeds the workers.
final class RunState: Sendable {
    private let state = Mutex<(reports: [SetReport], stopReason: String?)>(([], nil))

    /// Why the run stopped taking sets, once it has.
    var stopReason: String? { state.withLock { $0.stopReason } }

    /// Stops the run for `reason`, unless it stopped already.
    func stop(because reason: String) {
        state.withLock { $0.stopReason = $0.stopReason ?? reason }
    }

    func add(_ report: SetReport) {
        state.withLock { $0.reports.append(report) }
    }

    var summary: RunSummary {
        state.withLock { state in
            var summary = RunSummary()
            summary.sets = state.reports
            summary.stoppedEarly = state.stopReason
            return summary
        }
    }
}
