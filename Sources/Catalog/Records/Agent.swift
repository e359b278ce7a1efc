/// An agent that photo sets are captured for: one row per agent id, holding its latest display name.
package struct Agent: Codable, Hashable, Sendable {
    /// The stable id from `capture.json`.
    package var id: String
    /// The latest display name seen; the id itself when no sidecar named it.
    package var name: String
    /// When a set of this agent was first and last committed, ISO 8601 UTC.
    package var firstSeen: String
    package var lastSeen: String

    package init(id: String, name: String, firstSeen: String, lastSeen: String) {
        self.id = id
        self.name = name
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}
