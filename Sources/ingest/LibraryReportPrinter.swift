import Foundation
import Pipeline

/// `ingest verify`'s report as a person reads it: one line per problem and what was done, printed
/// as it is found, then the totals.
struct LibraryReportPrinter: Sendable {
    /// The line drawn on standard error, kept out of the way of each problem's line.
    var progress: ProgressLine?
    /// With `--quiet`: only the problems left unrepaired, and the totals only when one is.
    var quiet: Bool

    /// The widest kind's name: every problem's path starts in the same column, whichever are found.
    static let kindWidth = LibraryProblem.Kind.allCases.map(\.rawValue.count).max() ?? 0

    /// Prints `problem`'s line now.
    func print(_ problem: LibraryProblem) {
        guard !quiet || problem.repair == nil else { return }
        if let progress { progress.print(Self.line(problem)) } else { Swift.print(Self.line(problem)) }
    }

    /// Prints the totals, once every problem is.
    func finish(_ report: LibraryReport) {
        guard !quiet || !report.isClean else { return }
        Swift.print(Self.summary(report), terminator: "")
    }

    static func line(_ problem: LibraryProblem) -> String {
        "  " + problem.kind.rawValue.padding(toLength: kindWidth, withPad: " ", startingAt: 0)
            + "  \(TerminalText.escaped(problem.path)): \(TerminalText.escaped(problem.detail))"
            + (problem.repair.map { " -> \(TerminalText.escaped($0))" } ?? "")
    }

    static func summary(_ report: LibraryReport) -> String {
        var lines = ["photos \(report.photos), files \(report.files), problems \(report.problems), "
            + "repaired \(report.repaired), left \(report.unrepaired)"]
        if let total = report.sampledFrom, let bound = report.problemShareBound {
            lines.append("sample of \(report.photos) of \(total) photos, \(report.photosWithProblems) with a problem: with 95% "
                + "confidence at most \(String(format: "%.2f", bound * 100))% of all photos have one")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
