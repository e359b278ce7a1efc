/// One `ingest run`: when, what it saw and what became of it.
public struct Run: Codable, Hashable, Sendable {
    public var id: Int64?
    public var startedAt: String
    public var finishedAt: String?
    public var inbox: String
    public var sets: Int
    public var captures: Int
    public var photos: Int
    public var duplicates: Int
    public var quarantined: Int
    public var failed: Int

    public init(id: Int64? = nil, startedAt: String, finishedAt: String? = nil, inbox: String, sets: Int = 0,
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
