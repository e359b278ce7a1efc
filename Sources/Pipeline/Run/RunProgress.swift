import Foundation

/// How far a run (or a thumbnail regeneration, whose set counts stay 0) has come.
public struct RunProgress: Sendable {
    public var photosDone: Int
    public var photosTotal: Int
    public var setsDone: Int
    public var setsTotal: Int
    public var elapsed: Double

    /// Photos per second so far.
    public var rate: Double { elapsed > 0 ? Double(photosDone) / elapsed : 0 }

    /// Seconds left at the current rate, when it can be told.
    public var remaining: Double? { rate > 0 ? Double(photosTotal - photosDone) / rate : nil }
}

/// Counts finished work for `RunProgress`; thread-safe.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current: RunProgress
    private let started: Date

    init(photos: Int, sets: Int = 0, started: Date = Date()) {
        current = RunProgress(photosDone: 0, photosTotal: photos, setsDone: 0, setsTotal: sets, elapsed: 0)
        self.started = started
    }

    func photoDone() -> RunProgress { update { $0.photosDone += 1 } }

    func setDone() -> RunProgress { update { $0.setsDone += 1 } }

    private func update(_ change: (inout RunProgress) -> Void) -> RunProgress {
        lock.lock()
        defer { lock.unlock() }
        change(&current)
        current.elapsed = Date().timeIntervalSince(started)
        return current
    }
}
