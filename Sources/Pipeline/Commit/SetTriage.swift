internal import SystemPackage

/// A set's analysed files sorted by what becomes of them: new photos to commit, files to set
/// aside (rejects to the quarantine, byte-identical duplicates beside it), and files skipped.
struct SetTriage: Sendable {
    /// A file to move out of the inbox with the reason its `.reason` note gives.
    struct Aside: Sendable {
        var file: InboxFile
        var reason: String
        /// A reject's `PhotoError.kind`.
        var kind: String?
    }

    /// Photos to catalogue: each hash once, in file order.
    var newPhotos: [AnalysedPhoto] = []
    /// Not usable photos, for the quarantine.
    var rejects: [Aside] = []
    /// Bytes catalogued already, or twice in this set, for the quarantine's `duplicates/`.
    var duplicates: [Aside] = []
    /// Files this set and path catalogued in an earlier `copy`-mode run.
    var alreadyCatalogued = 0
    /// Staged thumbnails of duplicates: no longer needed.
    var discardedThumbnails: [FilePath] = []
}
