import Catalog
internal import SystemPackage

/// One set's commit, decided before anything moves: the journal to write (every file to place or
/// set aside), the rows to insert, and the report the set gets once both are done.
struct CommitPlan: Sendable {
    var set: PhotoSet
    var journal: CommitJournal
    /// Nil when no photo of the set is to be committed (its files are only set aside).
    var records: CommittedSet?
    var report: SetReport
    /// Staged thumbnails nothing will use (those of duplicates), to remove.
    var discardedThumbnails: [FilePath]

    /// Nothing to place, insert or set aside.
    var isEmpty: Bool { journal.entries.isEmpty && (journal.asides ?? []).isEmpty }

    /// Every staged thumbnail of the set: placed by the commit, or to remove if it fails.
    var stagedThumbnails: [FilePath] { journal.entries.map { FilePath($0.staged) } + discardedThumbnails }
}
