import Catalog

/// What the catalogue already holds of a set's files, looked up just before the set's commit is
/// planned (an earlier set of the same run may have committed the same bytes).
struct KnownPhotos: Sendable {
    /// Catalogued photos among the set's analysed files, by SHA-256.
    var byHash: [String: Photo] = [:]
    /// Relative paths of the set's already-catalogued files that this very set and path catalogued
    /// in an earlier `copy`-mode run: the inbox keeps originals in that mode, so they are skipped,
    /// not duplicates.
    var catalogedFromHere: Set<String> = []
}
