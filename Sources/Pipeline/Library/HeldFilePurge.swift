/// What `HeldFilePurger.purge` removed, and what it could not, in counts: the files left went to
/// the caller one by one.
package struct HeldFilePurge: Sendable, Equatable {
    /// Files removed from the library.
    package var removed = 0
    /// Files that could not be removed; no row references them and no edit holds them any more.
    package var left = 0
}
