/// A worker sharing the catalogue: one `ingest run` or `ingest watch` process, on some machine.
package struct Worker: Codable, Hashable, Sendable {
    /// `host-pid-random`, logged with every line the worker writes.
    package var id: String
    package var host: String
    package var pid: Int
    /// When it started, ISO 8601 UTC.
    package var startedAt: String
    /// Until when it counts as alive, in seconds since 1970 by the database's clock; it renews
    /// this while it runs, and a worker that stops renewing (killed, cut off) lapses.
    package var leaseUntil: Double

    package init(id: String, host: String, pid: Int, startedAt: String, leaseUntil: Double = 0) {
        self.id = id
        self.host = host
        self.pid = pid
        self.startedAt = startedAt
        self.leaseUntil = leaseUntil
    }
}

/// A set of the inbox claimed by a worker: no other worker ingests it while the claim's lease
/// lasts. Released when the set is done; a dead worker's claims lapse and may be taken over.
package struct SetClaim: Codable, Hashable, Sendable {
    package var setName: String
    package var workerId: String
    /// When the worker claimed it, and until when it holds it: seconds since 1970, database clock.
    package var claimedUTC: Double
    package var leaseUntil: Double
}

/// What `Catalogue.claimSet` got.
package enum ClaimOutcome: Sendable, Equatable {
    /// The set is the worker's now; `takenOverFrom` names the worker whose lapsed claim it took
    /// over (whose unfinished commit of the set, if any, must be finished or undone first).
    case claimed(takenOverFrom: String?)
    /// Another worker holds the set, until `until` unless it renews its claim.
    case held(by: String, until: Double)
}

/// The claim a commit is made under: the commit is refused unless `worker` still holds `setName`.
package struct ClaimedSet: Sendable, Hashable {
    package var setName: String
    package var worker: String

    package init(setName: String, worker: String) {
        self.setName = setName
        self.worker = worker
    }
}

/// The workers of a shared catalogue, their claims, and the database's clock when they were read.
package struct WorkerList: Sendable {
    package var now: Double
    package var workers: [Worker]
    package var claims: [SetClaim]
}
