import Dispatch
import Synchronization

/// A bounded number of Dispatch threads: at most `workers` pieces of work run at once.
final class WorkerPool: Sendable {
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore

    init(label: String, workers: Int) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
        slots = DispatchSemaphore(value: max(1, workers))
    }

    /// Starts `work` on the pool as a member of `group`, once a worker is free: until then the
    /// caller waits, so work is never queued faster than it is done.
    func start(in group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
        slots.wait()
        group.enter()
        queue.async { [slots] in
            work()
            slots.signal()
            group.leave()
        }
    }

    /// `body` applied to every item, at most `workers` at a time; the results come back in item order.
    static func map<Item: Sendable, Result: Sendable>(_ items: [Item], workers: Int,
                                                _ body: @Sendable (Item) -> Result) -> [Result] {
        let next = Atomic(0)
        let results = Mutex([Result?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < items.count else { return }
                let result = body(items[index])
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Runs `work` on a thread of its own and returns at once; `wait()` on the result blocks until
    /// `work` is done and returns what it returned or rethrows what it threw.
    static func background<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) -> Background<Result> {
        let background = Background<Result>()
        background.group.enter()
        DispatchQueue.global().async {
            let result = Swift.Result { try work() }
            background.result.withLock { $0 = result }
            background.group.leave()
        }
        return background
    }

    /// Work started by `background(_:)`.
    final class Background<Value: Sendable>: Sendable {
        fileprivate let group = DispatchGroup()
        fileprivate let result = Mutex<Swift.Result<Value, any Error>?>(nil)

        /// What the work returned, once it is done; rethrows what it threw.
        func wait() throws -> Value {
            group.wait()
            return try result.withLock { $0! }.get()
        }
    }
}
