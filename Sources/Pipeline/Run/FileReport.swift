/// A file the run did not catalogue, and why; `keptAt` says where its content is now.
package struct FileReport: Sendable, Equatable {
    /// `set/relative/path` as it was in the inbox.
    package var path: String
    package var reason: String
    package var keptAt: String?
    /// A quarantined photo's `PhotoError.kind`.
    package var kind: String?

    package init(path: String, reason: String, keptAt: String?, kind: String? = nil) {
        self.path = path
        self.reason = reason
        self.keptAt = keptAt
        self.kind = kind
    }
}
