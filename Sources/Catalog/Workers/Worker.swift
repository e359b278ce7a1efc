/// A worker sharing the catalogue: one `ingest run` or `ingest watch` process, on some machine.
public struct Worker: Codable, Hashable, Sendable {
    /// `host-pid-random`, logged with every line the worker writes.
    public var id: String
    public var host: String
    public var pid: Int
    /// When it started, ISO 8601 UTC.
    public var startedAt: String
    /// Until when it counts as alive, in seconds since 1970 by the database's clock; it renews
    /// this while it runs, and a worker that stops renewing (killed, cut off) lapses.
    public var leaseUntil: Double

    public init(id: String, host: String, pid: Int, startedAt: String, leaseUntil: Double = 0) {
        self.id = id
        self.host = host
        self.pid = pid
        self.startedAt = startedAt
        self.leaseUntil = leaseUntil
    }
}

/// A set of the inbox claimed by a worker: no other worker ingests it while the claim's lease
/// lasts. Released when the set is done; a dead worker's claims lapse and may be taken over.
public struct SetClaim: Codable, Hashable, Sendable {
    public var setName: String
    public var workerId: String
    /// When the worker claimed it, and until when it holds it: seconds since 1970, database clock.
    public var claimedUTC: Double
    public var leaseUntil: Double
}

/// What `Catalogue.claimSet` got.
public enum ClaimOutcome: Sendable, Equatable {
    /// The set is the worker's now; `takenOverFrom` names the worker whose lapsed claim it took
    /// over (whose unfinished commit of the set, if any, must be finished or undone first).
    case claimed(takenOverFrom: String?)
    /// Another worker holds the set, until `until` unless it renews its claim.
    case held(by: String, until: Double)
}

/// The claim a commit is made under: the commit is refused unless `worker` still holds `setName`.
public struct ClaimedSet: Sendable, Hashable {
    public var setName: String
    public var worker: String

    public init(setName: String, worker: String) {
        self.setName = setName
        self.worker = worker
    }
}

/// The workers of a shared catalogue, their claims, and the database's clock when they were read.
public struct WorkerList: Sendable {
    public var now: Double
    public var workers: [Worker]
    public var claims: [SetClaim]
}
