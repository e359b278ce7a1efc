/// One recorded correction: what it did, when, where from, and the captures it touched before and
/// after, so that it can be undone.
package struct Edit: Hashable, Sendable {
    /// Ascending in the order edits were made.
    package var id: Int64
    package var kind: EditKind
    /// ISO 8601 UTC.
    package var madeAt: String
    /// Who made it: `cli`, or `web` and the client's address.
    package var origin: String
    /// One line a person reads: "merged 2 captures into 3f2a… (7 photos)".
    package var summary: String
    /// The captures the edit touched as they were, and as it left them; a capture of `before` absent
    /// from `after` was removed (merged away or deleted).
    package var before: [CaptureSnapshot]
    package var after: [CaptureSnapshot]
    /// The edit this one reverted (kind `undo`).
    package var undoes: Int64?
    /// The edit that reverted this one; nil while it stands.
    package var undoneBy: Int64?
    /// When `ingest purge` removed the files this edit held (a delete's); it can no longer be undone.
    package var purgedAt: String?

    package init(id: Int64, kind: EditKind, madeAt: String, origin: String, summary: String, before: [CaptureSnapshot],
                after: [CaptureSnapshot], undoes: Int64? = nil, undoneBy: Int64? = nil, purgedAt: String? = nil) {
        self.id = id
        self.kind = kind
        self.madeAt = madeAt
        self.origin = origin
        self.summary = summary
        self.before = before
        self.after = after
        self.undoes = undoes
        self.undoneBy = undoneBy
        self.purgedAt = purgedAt
    }

    /// Every capture id the edit touched, those of `before` first, each once.
    package var captureIds: [String] {
        var seen = Set<String>()
        return (before + after).map(\.capture.id).filter { seen.insert($0).inserted }
    }
}

/// What a correction will do, decided from the captures as they are (see `Catalogue.applyEdit`).
package struct EditPlan: Sendable {
    package var kind: EditKind
    package var summary: String
    /// Every capture the edit leaves, as it leaves it, photos by position. A capture it was given and
    /// that is not here is removed, and so is a photo it was given that no capture here holds.
    package var after: [CaptureSnapshot]

    package init(kind: EditKind, summary: String, after: [CaptureSnapshot]) {
        self.kind = kind
        self.summary = summary
        self.after = after
    }
}
