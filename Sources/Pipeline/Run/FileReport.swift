/// A file the run did not catalogue, and why; `keptAt` says where its content is now.
public struct FileReport: Sendable, Equatable {
    /// `set/relative/path` as it was in the inbox.
    public var path: String
    public var reason: String
    public var keptAt: String?
    /// A quarantined photo's `PhotoError.kind`.
    public var kind: String?

    public init(path: String, reason: String, keptAt: String?, kind: String? = nil) {
        self.path = path
        self.reason = reason
        self.keptAt = keptAt
        self.kind = kind
    }
}
