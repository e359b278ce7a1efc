/// What `HeldFilePurger.purge` removed, and what it could not.
public struct HeldFilePurge: Sendable {
    /// Library-relative paths of the files removed.
    public var removedFiles: [String] = []
    /// Files that could not be removed; no row references them and no edit holds them any more.
    public var leftFiles: [FileReport] = []
}
