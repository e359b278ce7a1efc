/// An agent that photo sets are captured for: one row per agent id, holding its latest display name.
public struct Agent: Codable, Hashable, Sendable {
    /// The stable id from `capture.json`.
    public var id: String
    /// The latest display name seen; the id itself when no sidecar named it.
    public var name: String
    /// When a set of this agent was first and last committed, ISO 8601 UTC.
    public var firstSeen: String
    public var lastSeen: String

    public init(id: String, name: String, firstSeen: String, lastSeen: String) {
        self.id = id
        self.name = name
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}
