import Foundation

/// Decides when a set folder in the inbox is complete: no change for `settleSeconds` and every
/// file's size and modification time as they were at the last change, or at once when the set's
/// ready marker appears.
///
/// Pure: the caller passes the time (seconds on any monotonic clock) and the files' stamps, so the
/// decisions can be tested without sleeping or touching a disk. Not thread-safe; one owner drives it.
package struct SettleTracker: Sendable {
    /// What to do with a set `ready(at:)` named, once its files have been stamped again.
    package enum Decision: Equatable, Sendable {
        /// Settled (or marked ready): ingest it now. The tracker forgets the set.
        case ingest
        /// A file changed without an event being seen: the quiet period starts again.
        case wait
        /// No files, or only those its last ingest left behind: nothing to do. The tracker forgets the set.
        case nothingNew
    }

    private struct Pending: Sendable {
        /// When the quiet period ends.
        var quietUntil: Double
        /// The set's files at its last change; nil when they were not listed then.
        var stamps: SetStamps?
        var marked: Bool
    }

    /// How long a set must stay unchanged before it is ingested.
    package let settleSeconds: Double
    private var pending: [String: Pending] = [:]
    /// What each set folder still held after its last successful ingest (copy mode keeps originals).
    private var ingested: [String: SetStamps] = [:]

    package init(settleSeconds: Double) {
        self.settleSeconds = settleSeconds
    }

    /// Something changed in `set` at `time`: its quiet period starts again. `stamps` are its files
    /// right after the change; without them the first check after the quiet period waits once more.
    package mutating func noteChange(set: String, at time: Double, stamps: SetStamps? = nil) {
        let marked = pending[set]?.marked ?? false
        pending[set] = Pending(quietUntil: time + settleSeconds, stamps: stamps, marked: marked)
    }

    /// The set's ready marker appeared: the set is ready at once, however recently it changed.
    package mutating func noteMarker(set: String) {
        pending[set, default: Pending(quietUntil: -.infinity, stamps: nil, marked: true)].marked = true
    }

    /// A set a sweep of the inbox found with `stamps` at `time`: tracked like a change unless it
    /// is tracked already, holds no files, or holds just what its last ingest left behind.
    package mutating func noteSwept(set: String, at time: Double, stamps: SetStamps) {
        guard pending[set] == nil, !stamps.isEmpty, stamps != ingested[set] else { return }
        noteChange(set: set, at: time, stamps: stamps)
    }

    /// The set folder is gone: forget everything about it.
    package mutating func forget(set: String) {
        pending[set] = nil
        ingested[set] = nil
    }

    /// The sets whose marker appeared or whose quiet period is over at `time`, by name. Stamp each
    /// one's files again and pass them to `confirm(set:stamps:at:)`.
    package func ready(at time: Double) -> [String] {
        pending.filter { $0.value.marked || $0.value.quietUntil <= time }.keys.sorted()
    }

    /// When the next tracked set becomes ready, or nil when none is tracked.
    package var nextDeadline: Double? {
        pending.values.map { $0.marked ? -.infinity : $0.quietUntil }.min()
    }

    /// The sets being tracked, by name.
    package var tracked: [String] { pending.keys.sorted() }

    /// Checks a ready set against its files' `stamps` now: ingest when they match the stamps of its
    /// last change (or its marker appeared); otherwise the quiet period starts again at `time`.
    package mutating func confirm(set: String, stamps: SetStamps, at time: Double) -> Decision {
        guard let entry = pending[set] else { return .nothingNew }
        if stamps.isEmpty || stamps == ingested[set] {
            pending[set] = nil
            return .nothingNew
        }
        guard entry.marked || entry.stamps == stamps else {
            pending[set] = Pending(quietUntil: time + settleSeconds, stamps: stamps, marked: false)
            return .wait
        }
        pending[set] = nil
        return .ingest
    }

    /// `set` was ingested and its folder still holds `remaining` (none in move mode): a sweep that
    /// finds just these files again has nothing new to ingest.
    package mutating func noteIngested(set: String, remaining: SetStamps) {
        ingested[set] = remaining
    }
}
