/// What `HeldFilePurger.purge` removed, and what it could not, in counts: the files left went to
/// the caller one by one.
public struct HeldFilePurge: Sendable, Equatable {
    /// Files removed from the library.
    public var removed = 0
    /// Files that could not be removed; no row references them and no edit holds them any more.
    public var left = 0
}
