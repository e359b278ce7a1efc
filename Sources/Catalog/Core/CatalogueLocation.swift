/// Where a catalogue lives: a SQLite file, or a PostgreSQL database named by a URL.
package enum CatalogueLocation: Sendable, Equatable {
    case sqlite(path: String)
    /// A libpq connection URL, `postgresql://user@host:5432/db?sslmode=require`; libpq reads what
    /// it leaves out (the password: `PGPASSWORD`, `~/.pgpass`) from its usual places.
    case postgres(url: String)

    /// A `postgresql://` or `postgres://` URL names a PostgreSQL database; anything else is a path.
    package init(_ text: String) {
        self = Self.isURL(text) ? .postgres(url: text) : .sqlite(path: text)
    }

    /// Whether `text` is a PostgreSQL URL rather than a path.
    package static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Whether several workers may share the catalogue (PostgreSQL); a SQLite file has one writer.
    package var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The path, or the URL with any password replaced by `***`: fit for messages and logs.
    package var displayName: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): Self.redacted(url)
        }
    }

    /// What is wrong with the URL (libpq cannot parse it), or nil; a path is never wrong here.
    package var problem: String? {
        guard case .postgres(let url) = self else { return nil }
        return PostgresConnection.problem(ofURL: url)
    }

    /// `url` with the password of its user part and of a `password=` parameter replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority.replaceSubrange(authority.index(after: colon) ..< at, with: "***")
        }
        var tail = String(rest[authorityEnd...])
        if let query = tail.firstIndex(of: "?") {
            let parameters = tail[tail.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { parameter in
                parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
            }
            tail = String(tail[...query]) + parameters.joined(separator: "&")
        }
        return url[..<schemeEnd.upperBound] + authority + tail
    }
}
