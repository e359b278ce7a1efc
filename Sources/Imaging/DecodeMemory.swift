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
package final class DecodeMemory: Sendable {
    /// Bytes the decodes running at once may reserve together.
    package var limit: Int { shares.limit }
    private let shares: FairShares

    package init(limit: Int) {
        shares = FairShares(limit: limit)
    }

    /// Runs `body` once `bytes` fit beside the decodes already running (or none runs), holding
    /// them until it returns.
    func withReservation<T, Failure: Error>(of bytes: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        try shares.withShare(of: bytes) { () throws(Failure) -> T in
            if bytes > limit { ImageLibraries.releaseFreedBuffers() }
            return try body()
        }
    }

    /// Decodes waiting for their turn.
    var waiting: Int { shares.waiting }
}
