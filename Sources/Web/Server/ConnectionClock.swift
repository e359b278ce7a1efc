/// When one connection must be closed, decided from what it has done — the pure half of
/// `ConnectionGuard`, tested without a socket:
///
/// - a request head must be whole `header` after the connection opened, or after the first byte
///   that followed a quiet spell (a silent, half-header or slow-drip client is closed);
/// - between requests a connection may stay silent for `idle`;
/// - a request's body may pause for `body` at the most (an upload's own `uploadIdleSeconds` answers
///   408 before that);
/// - while an answer is being made nothing is timed (the route's work is its own).
struct ConnectionClock {
    struct Limits: Equatable {
        var header: Duration
        var idle: Duration
        var body: Duration
    }

    let limits: Limits
    /// Requests whose head came and whose answer has not ended.
    private(set) var openRequests = 0
    /// A request's body is still coming.
    private(set) var readingBody = false
    private var lastByte: ContinuousClock.Instant
    /// Since when no request has been open.
    private var quietSince: ContinuousClock.Instant
    /// When the head now awaited began: the connection's opening, or the first byte after quiet.
    private var headSince: ContinuousClock.Instant?

    init(limits: Limits, opened now: ContinuousClock.Instant) {
        self.limits = limits
        lastByte = now
        quietSince = now
        headSince = now
    }

    /// Whether the connection is between requests (or not yet through its first head): one the
    /// server may close for a newcomer when it holds as many as it may.
    var isQuiet: Bool { openRequests == 0 }

    /// When the connection is to be closed if nothing more happens; nil while an answer is made.
    var deadline: ContinuousClock.Instant? {
        if readingBody { return lastByte + limits.body }
        if openRequests > 0 { return nil }
        if let headSince { return headSince + limits.header }
        return quietSince + limits.idle
    }

    /// Why the deadline closes the connection, for the log.
    var reason: String {
        if readingBody { return "the request's body stalled" }
        return headSince == nil ? "idle between requests" : "no complete request head in time"
    }

    mutating func bytesArrived(at now: ContinuousClock.Instant) {
        lastByte = now
        if openRequests == 0, headSince == nil { headSince = now }
    }

    mutating func headArrived(at now: ContinuousClock.Instant) {
        openRequests += 1
        readingBody = true
        headSince = nil
        lastByte = now
    }

    mutating func requestEnded() {
        readingBody = false
    }

    mutating func responseEnded(at now: ContinuousClock.Instant) {
        openRequests = max(0, openRequests - 1)
        if openRequests == 0 { quietSince = now }
    }
}
