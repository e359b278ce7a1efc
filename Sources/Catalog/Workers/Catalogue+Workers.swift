/// How workers share a catalogue: each registers itself and renews a lease; a set is ingested by
/// the worker that claimed it (`set_claim`, one row per set). Times are the database's clock, so
/// the workers' own clocks may differ. A SQLite catalogue has one writer at a time (the library's
/// lock) and never calls these.
extension Catalogue {
    /// Registers `worker` with a lease of `leaseSeconds`, and forgets workers and claims lapsed
    /// for more than a day.
    package func registerWorker(_ worker: Worker, leaseSeconds: Double) throws {
        try write { db in
            let now = db.dialect.now
            try db.execute("DELETE FROM worker WHERE lease_until < \(now) - 86400")
            try db.execute("DELETE FROM set_claim WHERE lease_until < \(now) - 86400")
            try db.execute("""
                INSERT INTO worker (id, host, pid, started_at, lease_until) VALUES (?, ?, ?, ?, \(now) + ?)
                ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until
                """, [worker.id.sqlValue, worker.host.sqlValue, worker.pid.sqlValue, worker.startedAt.sqlValue,
                      leaseSeconds.sqlValue])
        }
    }

    /// Extends the leases of worker `id` and of all its claims by `leaseSeconds` from now; returns
    /// the sets it holds, and whether its worker row was still there (a worker that was away for
    /// more than a day registers again).
    package func renewLease(worker id: String, leaseSeconds: Double) throws -> (sets: Set<String>, registered: Bool) {
        try write { db in
            let now = db.dialect.now
            let registered = try db.execute("UPDATE worker SET lease_until = \(now) + ? WHERE id = ?",
                                            [leaseSeconds.sqlValue, id.sqlValue]) > 0
            try db.execute("UPDATE set_claim SET lease_until = \(now) + ? WHERE worker_id = ?", [leaseSeconds.sqlValue, id.sqlValue])
            let sets = Set(try db.column(String.self, "SELECT set_name FROM set_claim WHERE worker_id = ?", [id.sqlValue]))
            return (sets, registered)
        }
    }

    /// Claims the set `name` for worker `worker` for `leaseSeconds`: when no one holds it, when
    /// the holder's lease has lapsed (taken over), or when `worker` holds it already (renewed).
    /// Of two workers claiming a free set at once, one gets it: the claim's row is locked while
    /// it is read, and the insert of a second row fails on its primary key.
    package func claimSet(_ name: String, worker: String, leaseSeconds: Double) throws -> ClaimOutcome {
        try write { db in
            let now = db.dialect.now
            let set = name.sqlValue, me = worker.sqlValue, lease = leaseSeconds.sqlValue
            var holder: (worker: String, until: Double, now: Double)?
            let select = "SELECT worker_id, lease_until, \(now) FROM set_claim WHERE set_name = ?" + db.dialect.lockingRead
            try db.query(select, [set]) { holder = ($0[0], $0[1], $0[2]) }
            guard let holder else {
                let inserted = try db.execute("""
                    INSERT INTO set_claim (set_name, worker_id, claimed_utc, lease_until) VALUES (?, ?, \(now), \(now) + ?)
                    ON CONFLICT (set_name) DO NOTHING
                    """, [set, me, lease])
                if inserted > 0 { return .claimed(takenOverFrom: nil) }
                var winner: (worker: String, until: Double) = ("", 0)
                try db.query("SELECT worker_id, lease_until FROM set_claim WHERE set_name = ?", [set]) { winner = ($0[0], $0[1]) }
                return .held(by: winner.worker, until: winner.until)
            }
            guard holder.worker == worker || holder.until < holder.now else {
                return .held(by: holder.worker, until: holder.until)
            }
            try db.execute("""
                UPDATE set_claim SET worker_id = ?, claimed_utc = \(now), lease_until = \(now) + ? WHERE set_name = ?
                """, [me, lease, set])
            return .claimed(takenOverFrom: holder.worker == worker ? nil : holder.worker)
        }
    }

    /// Lets the set `name` go, if `worker` holds it.
    package func releaseSet(_ name: String, worker: String) throws {
        _ = try write { db in
            try db.execute("DELETE FROM set_claim WHERE set_name = ? AND worker_id = ?", [name.sqlValue, worker.sqlValue])
        }
    }

    /// Removes worker `id` and lets all its claims go: it stops.
    package func endWorker(_ id: String) throws {
        try write { db in
            try db.execute("DELETE FROM set_claim WHERE worker_id = ?", [id.sqlValue])
            try db.execute("DELETE FROM worker WHERE id = ?", [id.sqlValue])
        }
    }

    /// The worker that holds the set `name` now; nil when none does.
    package func claimHolder(of name: String) throws -> String? {
        try read { db in try db.scalar(String.self, "SELECT worker_id FROM set_claim WHERE set_name = ?", [name.sqlValue]) }
    }

    /// Every registered worker and claim, and the database's clock.
    package func workers() throws -> WorkerList {
        try read { db in
            WorkerList(now: try db.scalar(Double.self, "SELECT \(db.dialect.now)") ?? 0,
                       workers: try db.fetchAll(Worker.self, "SELECT * FROM worker ORDER BY host, started_at, id"),
                       claims: try db.fetchAll(SetClaim.self, "SELECT * FROM set_claim ORDER BY worker_id, set_name"))
        }
    }
}
