import Foundation
import Pipeline

/// `ingest verify`'s report as a person reads it: the totals, then one line per problem and what was done.
struct LibraryReportPrinter {
    var report: LibraryReport

    var text: String {
        let repaired = report.problems.count - report.unrepaired.count
        var lines = ["photos \(report.photos), files \(report.files), problems \(report.problems.count), "
            + "repaired \(repaired), left \(report.unrepaired.count)"]
        if let total = report.sampledFrom, let bound = report.problemShareBound {
            lines.append("sample of \(report.photos) of \(total) photos, \(report.photosWithProblems) with a problem: with 95% "
                + "confidence at most \(String(format: "%.2f", bound * 100))% of all photos have one")
        }
        let width = report.problems.map(\.kind.rawValue.count).max() ?? 0
        for problem in report.problems {
            lines.append("  " + problem.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(problem.path): \(problem.detail)" + (problem.repair.map { " -> \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
