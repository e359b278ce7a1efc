import Foundation

/// A bound on the memory the photos being decoded at once hold, shared by the workers of a run.
///
/// Each decode reserves what it holds at its peak before it starts, and waits while the decodes
/// already running hold too much. One photo that alone needs more than the limit waits until no
/// other decode runs, then runs by itself, once the freed buffers the heaps keep are given back
/// (`ImageLibraries.releaseFreedBuffers`); it is never refused here (`maxPixels` refuses). Turns
/// are taken in order of arrival, so a large photo is not passed over by a stream of small ones.
///
/// Why: a HEIC cannot shrink while it loads, and libheif holds a 48 MP photo decoded as YCbCr and
/// as RGB at once (~330 MB). Beside another worker's decodes that raised a run's peak by more than
/// the photo's own decoded size; alone, it does not.
public final class DecodeMemory: @unchecked Sendable {
    /// Bytes the decodes running at once may reserve together.
    public let limit: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var reserved = 0
    private var running = 0
    private var nextTurn = 0
    private var turn = 0

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once `bytes` fit beside the decodes already running (or none runs), holding
    /// them until it returns.
    func withReservation<T, Failure: Error>(of bytes: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.lock()
        let mine = nextTurn
        nextTurn += 1
        while turn != mine || (running > 0 && reserved + bytes > limit) {
            condition.wait()
        }
        turn += 1
        reserved += bytes
        running += 1
        condition.broadcast()
        condition.unlock()
        if bytes > limit { ImageLibraries.releaseFreedBuffers() }
        defer {
            condition.lock()
            reserved -= bytes
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Decodes waiting for their turn.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return nextTurn - turn
    }
}
