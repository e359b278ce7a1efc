/// One `ingest run`: when, what it saw and what became of it.
package struct Run: Codable, Hashable, Sendable {
    package var id: Int64?
    package var startedAt: String
    package var finishedAt: String?
    package var inbox: String
    package var sets: Int
    package var captures: Int
    package var photos: Int
    package var duplicates: Int
    package var quarantined: Int
    package var failed: Int

    package init(id: Int64? = nil, startedAt: String, finishedAt: String? = nil, inbox: String, sets: Int = 0,
                captures: Int = 0, photos: Int = 0, duplicates: Int = 0, quarantined: Int = 0, failed: Int = 0) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.inbox = inbox
        self.sets = sets
        self.captures = captures
        self.photos = photos
        self.duplicates = duplicates
        self.quarantined = quarantined
        self.failed = failed
    }
}
