/// When one connection must be closed, decided from what it has done — the pure half of
/// `ConnectionGuard`, tested without a socket:
///
/// - a request head must be whole `header` after the connection opened, or after the first byte
///   that followed a quiet spell (a silent, half-header or slow-drip client is closed);
/// - between requests a connection may stay silent for `idle`;
/// - a request's body may pause for `body` at the most (an upload's own `uploadIdleSeconds` answers
///   408 before that);
/// - while an answer is being made nothing is timed (the route's work is its own);
/// - an answer that ends before its request's body (a form or an upload refused midway) is followed
///   by `lingering` at most of reading and dropping the rest: a client still sending then reads the
///   answer rather than a reset that would lose it, and a client that sends for ever is cut off.
struct ConnectionClock {
    /// How long the rest of a refused request's body is read and dropped before the connection
    /// closes (nginx's `lingering_time` does the same, for longer): enough for a client on a fast
    /// link to finish sending what it had in flight and turn to reading the answer.
    static let lingering: Duration = .seconds(2)

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
    /// Since when the rest of a refused request's body is dropped; nothing more is read as HTTP.
    private(set) var lingeringSince: ContinuousClock.Instant?

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
        if let lingeringSince { return lingeringSince + Self.lingering }
        if readingBody { return lastByte + limits.body }
        if openRequests > 0 { return nil }
        if let headSince { return headSince + limits.header }
        return quietSince + limits.idle
    }

    /// Why the deadline closes the connection, for the log.
    var reason: String {
        if lingeringSince != nil { return "the rest of a refused request's body kept coming" }
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

    /// The answer ended while its request's body was still coming: the connection only lingers now.
    mutating func answeredBeforeItsBody(at now: ContinuousClock.Instant) {
        readingBody = false
        lingeringSince = now
    }

    mutating func responseEnded(at now: ContinuousClock.Instant) {
        openRequests = max(0, openRequests - 1)
        if openRequests == 0 { quietSince = now }
    }
}
