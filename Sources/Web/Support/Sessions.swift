import Foundation
import Synchronization

/// The browsers signed in with the token, each by a random session id in an HttpOnly cookie, and
/// each with its own CSRF token. Kept in memory: a restart signs everyone out. Bounded: past
/// `capacity`, the oldest session goes.
final class Sessions: Sendable {
    private let sessions = Mutex<[String: Entry]>([:])
    private let capacity: Int
    /// How long a session lasts.
    let lifetime: TimeInterval

    struct Entry: Sendable {
        var csrfToken: String
        var started: Date
    }

    init(capacity: Int = 1000, lifetime: TimeInterval = 7 * 86_400) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// A new session: its id (the cookie's value) and its CSRF token.
    func start(now: Date = Date()) -> (id: String, csrfToken: String) {
        let id = Self.randomToken(), csrf = Self.randomToken()
        sessions.withLock { sessions in
            if sessions.count >= capacity, let oldest = sessions.min(by: { $0.value.started < $1.value.started }) {
                sessions[oldest.key] = nil
            }
            sessions[id] = Entry(csrfToken: csrf, started: now)
        }
        return (id, csrf)
    }

    /// The CSRF token of the session `id`; nil when there is no such session or it has expired.
    func csrfToken(of id: String, now: Date = Date()) -> String? {
        sessions.withLock { sessions in
            guard let entry = sessions[id] else { return nil }
            guard now.timeIntervalSince(entry.started) < lifetime else {
                sessions[id] = nil
                return nil
            }
            return entry.csrfToken
        }
    }

    func end(_ id: String) {
        sessions.withLock { $0[id] = nil }
    }

    /// 32 random bytes (the system's cryptographic generator) as 64 hex digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< 32).map { _ in String(format: "%02x", UInt8.random(in: 0 ... 255, using: &generator)) }.joined()
    }

    /// Compares two secrets in time that depends on their lengths only, not on where they differ.
    static func same(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
