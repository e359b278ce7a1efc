import Foundation
import Logging
import Pipeline
import Synchronization

/// One line on a terminal's standard error showing how far the work is — photos done of all, rate,
/// time left — redrawn in place with `\r` at most five times a second.
///
/// Only for terminals: where standard error is a file or a pipe, the log lines tell the progress.
/// Log lines written meanwhile (through `TerminalLogHandler`) appear above it.
final class ProgressLine: Sendable {
    /// Redraws closer together than this are skipped (the last one always draws).
    static let minimumInterval = 0.2

    /// The line as drawn, and when; also serialises every write to standard error.
    private let state = Mutex<(text: String, lastDraw: Date)>(("", .distantPast))

    private init() {}

    /// A progress line when standard error is a terminal and the command is not `--quiet`; nil otherwise.
    static func onTerminal(quiet: Bool) -> ProgressLine? {
        quiet || isatty(STDERR_FILENO) == 0 ? nil : ProgressLine()
    }

    /// Shows `progress`, unless the line was drawn less than `minimumInterval` ago. Thread-safe.
    func update(_ progress: RunProgress) {
        show(Self.describe(progress), last: progress.photosDone == progress.photosTotal)
    }

    /// Shows `text` (made only when drawn), unless the line was drawn less than `minimumInterval`
    /// ago and it is not the `last`. Thread-safe.
    func show(_ text: @autoclosure () -> String, last: Bool = false) {
        state.withLock { state in
            let now = Date()
            guard last || now.timeIntervalSince(state.lastDraw) >= Self.minimumInterval else { return }
            state.lastDraw = now
            state.text = text()
            write("\r\(state.text)\u{1B}[K")
        }
    }

    /// Runs `body`, which writes whole lines to standard error, with the progress line out of its way.
    func interrupting(_ body: () -> Void) {
        state.withLock { state in
            if !state.text.isEmpty { write("\r\u{1B}[K") }
            body()
            if !state.text.isEmpty { write(state.text) }
        }
    }

    /// Prints `line` on standard output now, with the progress line out of its way: both may be the
    /// same terminal.
    func print(_ line: String) {
        interrupting {
            Swift.print(line)
            fflush(nil)
        }
    }

    /// Prints a file that failed as `  PREFIXpath: reason`, escaped for the terminal, out of the way
    /// of `progress` when there is one.
    static func printFailure(_ failure: FileReport, prefix: String = "", on progress: ProgressLine?) {
        let line = "  \(prefix)\(TerminalText.escaped(failure.path)): \(TerminalText.escaped(failure.reason))"
        if let progress { progress.print(line) } else { Swift.print(line) }
    }

    /// Erases the line for good, before the command prints its result.
    func finish() {
        state.withLock { state in
            if !state.text.isEmpty { write("\r\u{1B}[K") }
            state.text = ""
        }
    }

    /// `photos 37/120  12.4/s  1:07 left`.
    static func describe(_ progress: RunProgress) -> String {
        var parts = ["photos \(progress.photosDone)/\(progress.photosTotal)"]
        if progress.setsTotal > 0 { parts.append("sets \(progress.setsDone)/\(progress.setsTotal)") }
        parts.append(String(format: "%.1f/s", progress.rate))
        if let remaining = progress.remaining, progress.photosDone < progress.photosTotal {
            let seconds = Int(remaining.rounded(.up))
            parts.append(String(format: "%d:%02d left", seconds / 60, seconds % 60))
        }
        return parts.joined(separator: "  ")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
