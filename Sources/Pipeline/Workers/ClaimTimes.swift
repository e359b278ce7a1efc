import Logging
import Synchronization
import Foundation

/// How long a run's claims of sets took (each a transaction with the catalogue's server), for
/// its closing log line: what sharing the inbox costs per set.
final class ClaimTimes: Sendable {
    private let times = Mutex<(count: Int, total: Double, longest: Double)>((0, 0, 0))

    func add(_ seconds: Double) {
        times.withLock { $0 = ($0.count + 1, $0.total + seconds, max($0.longest, seconds)) }
    }

    /// `claims`, `msEach`, `msLongest`.
    var metadata: Logger.Metadata {
        times.withLock { times in
            let each = times.count == 0 ? 0 : times.total / Double(times.count) * 1000
            return ["claims": "\(times.count)", "msEach": "\(String(format: "%.2f", each))",
                    "msLongest": "\(String(format: "%.2f", times.longest * 1000))"]
        }
    }
}
