import Glibc
import NIOCore
import Synchronization

/// The connections a server holds, at most `capacity`: a newcomer past it closes the one that has
/// been quiet longest (between requests, or not yet through its head: `ConnectionClock.isQuiet`),
/// or is closed itself when every connection is busy. So silent connections, however many, never
/// keep a normal request out, and descriptors never run out.
final class ConnectionTable: Sendable {
    private struct Entry: Sendable {
        let channel: any Channel
        /// When it last became quiet, by a counter; nil while busy.
        var quietOrder: UInt64?
    }

    private struct State: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var counter: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Takes in a new (quiet) connection; returns the connection to close to make room — another,
    /// or `channel` itself when none is quiet — or nil.
    func admit(_ channel: any Channel) -> (any Channel)? {
        state.withLock { state in
            var victim: (any Channel)?
            if state.entries.count >= capacity {
                guard let oldest = state.entries.filter({ $0.value.quietOrder != nil })
                    .min(by: { $0.value.quietOrder! < $1.value.quietOrder! }) else { return channel }
                state.entries[oldest.key] = nil
                victim = oldest.value.channel
            }
            state.counter += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, quietOrder: state.counter)
            return victim
        }
    }

    /// Marks `channel` busy (a request open) or quiet.
    func mark(_ channel: any Channel, busy: Bool) {
        state.withLock { state in
            guard state.entries[ObjectIdentifier(channel)] != nil else { return }
            state.counter += 1
            state.entries[ObjectIdentifier(channel)]?.quietOrder = busy ? nil : state.counter
        }
    }

    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// The connections to hold at most: `configured`, or fewer when the process may not open that
    /// many descriptors beside the ones the catalogue, the library and uploads in flight need.
    static func capacity(configured: Int, reserving reserve: Int = 128) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return configured }
        return max(16, min(configured, Int(limit.rlim_cur) - reserve))
    }
}
