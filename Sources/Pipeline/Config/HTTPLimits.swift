/// How long `ingest serve` waits for a client, and how many it holds at once: the `http…` keys of
/// `pipeline.json`. Enforced below authentication, on every connection, so a silent or slow client
/// costs a descriptor for seconds, never for ever, and never the server's last one.
package struct HTTPLimits: Sendable, Equatable {
    /// Seconds a connection may take to send a whole request head, from its first byte (or its opening).
    package var headerSeconds = 10.0
    /// Seconds a connection may stay silent between requests.
    package var idleSeconds = 60.0
    /// Connections open at once; past it, the one quiet for longest (between requests, or not yet
    /// through its head) is closed for the newcomer, or the newcomer when every one is busy.
    package var maxConnections = 1000

    package init() {}

    /// The keys, as `pipeline.json` names them.
    static let keys: Set<String> = ["httpHeaderSeconds", "httpIdleSeconds", "httpMaxConnections"]

    mutating func read(_ reader: KeyReader) {
        if let value = reader.number("httpHeaderSeconds", in: 1...600) { headerSeconds = value }
        if let value = reader.number("httpIdleSeconds", in: 1...3_600) { idleSeconds = value }
        if let value = reader.integer("httpMaxConnections", in: 16...100_000) { maxConnections = value }
    }
}
