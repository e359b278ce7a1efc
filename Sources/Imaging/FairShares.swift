import Foundation

/// A budget that threads take shares of in order of arrival: each takes its share before its work
/// and gives it back after. A share that does not fit beside those taken waits until it does; one
/// larger than the whole waits until nothing else runs, then runs alone. Every later share waits
/// behind a waiting one, so a large share is not passed over by a stream of small ones.
// @unchecked: every mutable property is read and written only with `condition` locked.
package final class FairShares: @unchecked Sendable {
    /// What the shares taken at once may add up to.
    package let limit: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var taken = 0
    private var running = 0
    private var nextTurn = 0
    private var turn = 0

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once `amount` fits beside the shares already taken (or none is), holding it
    /// until `body` returns.
    package func withShare<T, Failure: Error>(of amount: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.lock()
        let mine = nextTurn
        nextTurn += 1
        while turn != mine || (running > 0 && taken + amount > limit) {
            condition.wait()
        }
        turn += 1
        taken += amount
        running += 1
        condition.broadcast()
        condition.unlock()
        defer {
            condition.lock()
            taken -= amount
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Runs `body` with nothing else running: the whole budget, and more.
    package func alone<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try withShare(of: limit + 1, body)
    }

    /// Shares waiting for their turn.
    package var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return nextTurn - turn
    }
}
