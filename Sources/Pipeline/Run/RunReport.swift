/// A file the run did not catalogue, and why; `keptAt` says where its content is now.
public struct FileReport: Sendable, Equatable {
    /// `set/relative/path` as it was in the inbox.
    public var path: String
    public var reason: String
    public var keptAt: String?

    public init(path: String, reason: String, keptAt: String?) {
        self.path = path
        self.reason = reason
        self.keptAt = keptAt
    }
}

/// What became of one set.
public struct SetReport: Sendable {
    public var name: String
    public var captures = 0
    public var photos = 0
    public var duplicates: [FileReport] = []
    public var quarantined: [FileReport] = []
    /// Files the set could not commit: they stay in the inbox for the next run.
    public var failed: [FileReport] = []
    /// Hidden files, left in place without a word.
    public var ignored: [String] = []
    /// Names that are not UTF-8 and folders nested too deep: left in place, and reported.
    public var skipped: [FileReport] = []
    /// Photos catalogued from this very set and path by an earlier run in `copy` mode, skipped.
    public var alreadyCatalogued = 0
    /// The set's `capture.json` could not be used: the set was ingested without agent context and
    /// the sidecar left where it was.
    public var contextProblem: FileReport?
    public var seconds = 0.0

    public init(name: String) {
        self.name = name
    }
}

/// The whole run, for the summary and the exit code.
public struct RunSummary: Sendable {
    public var sets: [SetReport] = []
    public var seconds = 0.0
    /// Set when the run stopped before the end (a full disk); the sets not reached stay in the inbox.
    public var stoppedEarly: String?
    /// Set when a stop was requested (a signal) before every set was reached; those stay in the inbox.
    public var interrupted = false

    public init() {}

    public var captures: Int { sets.reduce(0) { $0 + $1.captures } }
    public var photos: Int { sets.reduce(0) { $0 + $1.photos } }
    public var duplicates: [FileReport] { sets.flatMap(\.duplicates) }
    public var quarantined: [FileReport] { sets.flatMap(\.quarantined) }
    public var failed: [FileReport] { sets.flatMap(\.failed) }
    public var contextProblems: [FileReport] { sets.compactMap(\.contextProblem) }
    public var skipped: [FileReport] { sets.flatMap(\.skipped) }

    /// Nothing needs a human: no file quarantined, failed or skipped, every sidecar used, and the run reached the end.
    public var isClean: Bool {
        quarantined.isEmpty && failed.isEmpty && skipped.isEmpty && contextProblems.isEmpty && stoppedEarly == nil
    }
}
