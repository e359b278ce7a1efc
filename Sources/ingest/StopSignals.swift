import Dispatch
import Foundation
import Logging

/// SIGTERM and SIGINT for a long-running command. The first one calls `stop`, which must make the
/// command finish its work in flight and return; a second one, or `graceSeconds` after the first
/// without the command having returned, ends the process at once with 128 + the signal's number
/// (143 for SIGTERM, 130 for SIGINT). An abort is safe: the commit journal and SQLite's atomic
/// transactions let the next start finish or undo what was cut short.
// @unchecked: `received` and the sources are touched on `queue` only (the signal handlers run
// there), or in `init` and `deinit`, when no handler can run.
final class StopSignals: @unchecked Sendable {
    private let queue = DispatchQueue(label: "ingest.signals")
    private let graceSeconds: Double
    private let logger: Logger
    private let stop: @Sendable () -> Void
    private var sources: [DispatchSourceSignal] = []
    /// The first signal received; only touched on `queue`.
    private var received: Int32?

    /// Catches SIGTERM and SIGINT from now on, until this object is released.
    init(graceSeconds: Double, logger: Logger, stop: @escaping @Sendable () -> Void) {
        self.graceSeconds = graceSeconds
        self.logger = logger
        self.stop = stop
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in self.handle(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    private func handle(_ number: Int32) {
        guard received == nil else { return abort(number, because: "a second signal") }
        received = number
        logger.notice("stopping: finishing the sets in flight", metadata: [
            "signal": "\(number)", "graceSeconds": "\(graceSeconds)",
        ])
        stop()
        queue.asyncAfter(deadline: .now() + graceSeconds) { [self] in
            abort(number, because: "the grace period ended")
        }
    }

    private func abort(_ number: Int32, because reason: String) {
        logger.error("aborting; the next start recovers any interrupted commit", metadata: ["reason": "\(reason)"])
        _exit(128 + number)
    }
}
