import Foundation
import Synchronization

/// Counts finished work for `RunProgress`; thread-safe.
final class ProgressCounter: Sendable {
    private let current: Mutex<RunProgress>
    private let started: Date

    init(photos: Int, sets: Int = 0, started: Date = Date()) {
        current = Mutex(RunProgress(photosDone: 0, photosTotal: photos, setsDone: 0, setsTotal: sets, elapsed: 0))
        self.started = started
    }

    func photoDone() -> RunProgress { update { $0.photosDone += 1 } }

    func setDone() -> RunProgress { update { $0.setsDone += 1 } }

    private func update(_ change: (inout RunProgress) -> Void) -> RunProgress {
        current.withLock { progress in
            change(&progress)
            progress.elapsed = Date().timeIntervalSince(started)
            return progress
        }
    }
}
