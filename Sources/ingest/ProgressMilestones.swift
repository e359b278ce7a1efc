import Foundation
import Logging
import Pipeline
import Synchronization

/// Progress for standard error that is not a terminal: a notice line at each tenth of the work.
final class ProgressMilestones: Sendable {
    private let logger: Logger
    private let tenthsLogged = Mutex(0)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Logs `progress` when it has reached a tenth not logged yet. Thread-safe.
    func record(_ progress: RunProgress) {
        guard progress.photosTotal > 0 else { return }
        let tenths = progress.photosDone * 10 / progress.photosTotal
        let isNew = tenthsLogged.withLock { logged in
            defer { logged = max(logged, tenths) }
            return tenths > logged
        }
        guard isNew else { return }
        logger.notice("progress", metadata: ["photos": "\(progress.photosDone)/\(progress.photosTotal)",
                                             "rate": "\(String(format: "%.1f/s", progress.rate))"])
    }
}
