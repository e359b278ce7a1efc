import Dispatch
import Foundation

/// A bounded number of Dispatch threads working through a list, as the ingest's analysis pool does.
enum WorkerPool {
    /// `body` applied to every item, at most `workers` at a time; the results come back in item order.
    static func map<Item, Result>(_ items: [Item], workers: Int, _ body: (Item) -> Result) -> [Result] {
        let lock = NSLock()
        var results = [Result?](repeating: nil, count: items.count)
        var next = 0
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < items.count else { return }
                let result = body(items[index])
                lock.lock()
                results[index] = result
                lock.unlock()
            }
        }
        return results.map { $0! }
    }
}
