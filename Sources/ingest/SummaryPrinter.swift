import Foundation
import Pipeline

/// The run summary as a person reads it: totals first, then every file that needs a look.
struct SummaryPrinter {
    var summary: RunSummary
    var config: PipelineConfig

    var text: String {
        var lines = [
            "sets \(summary.sets.count), captures \(summary.captures), photos \(summary.photos), "
                + "duplicates \(summary.duplicates.count), quarantined \(summary.quarantined.count), "
                + "failed \(summary.failed.count), seconds \(String(format: "%.1f", summary.seconds))",
        ]
        let resumed = summary.sets.reduce(0) { $0 + $1.alreadyCatalogued }
        if resumed > 0 { lines.append("skipped \(resumed) photos this inbox still holds from earlier runs (originals: copy)") }
        if let reason = summary.stoppedEarly {
            lines.append("STOPPED before the end (the set in hand and the remaining sets stay in the inbox): \(reason)")
        }
        lines += section("quarantined", summary.quarantined)
        lines += section("duplicates (kept aside)", summary.duplicates)
        lines += section("failed (left in the inbox)", summary.failed)
        lines += section("handed over (another worker took the set over when this one's claim lapsed)", summary.handedOver)
        lines += section("skipped (left in the inbox)", summary.skipped)
        lines += section("capture.json not used (sets ingested without agent context)", summary.contextProblems)
        return lines.joined(separator: "\n") + "\n"
    }

    private func section(_ title: String, _ files: [FileReport]) -> [String] {
        guard !files.isEmpty else { return [] }
        return ["\(title):"] + files.map {
            "  \(TerminalText.escaped($0.path)): \(TerminalText.escaped($0.reason))"
                + ($0.keptAt.map { " -> \(TerminalText.escaped($0))" } ?? "")
        }
    }
}
