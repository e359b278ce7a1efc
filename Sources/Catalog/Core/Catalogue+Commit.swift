extension Catalogue {
    /// Adds everything one set produced — its agent, captures, then photos, then hits — in one write transaction.
    ///
    /// Either all rows are written or none: a photo whose `sha256` is catalogued already throws
    /// `CatalogError.alreadyCatalogued` (another worker may have committed the same bytes a moment
    /// ago); a duplicate `original_path`, a photo of an unknown capture or a failed CHECK throws
    /// `CatalogError.commitFailed`, a full or failing disk `CatalogError.storageFailed`, a server
    /// out of reach `CatalogError.unreachable`; each leaves the catalogue as it was.
    /// A known agent keeps its `firstSeen`; its name changes only when the set's captures carry one.
    ///
    /// With a `claim` (a shared catalogue), the set is committed only while `claim.worker` still
    /// holds `claim.setName`: else `CatalogError.claimLost`, and the worker that took the set over
    /// finishes it. The claim's row stays locked until the commit ends, so it cannot be taken
    /// over halfway.
    package func commit(_ set: CommittedSet, claim: ClaimedSet? = nil) throws {
        try commit(batch: [set], claim: claim)
        logger.debug("Committed set", metadata: [
            "set": "\(set.captures.first?.setName ?? "")", "captures": "\(set.captures.count)",
            "photos": "\(set.photos.count)", "hits": "\(set.hits.count)",
        ])
    }

    /// Adds many sets in one write transaction, all or none, as `commit(_:)` adds one: for bulk
    /// loads (a million captures in minutes), where a transaction per set would wait on the disk
    /// for each.
    package func commit(batch sets: [CommittedSet], claim: ClaimedSet? = nil) throws {
        do {
            try mappingStorageErrors {
                try store.write { db in
                    if let claim { try expect(claim, db) }
                    for set in sets { try Self.insert(set, db) }
                }
            }
        } catch let error as SQLError {
            let first = sets.first?.captures.first?.setName ?? ""
            let name = sets.count > 1 ? "\(first) (and \(sets.count - 1) more sets of the batch)" : first
            if error.kind == .unique(column: "photo.sha256") {
                throw CatalogError.alreadyCatalogued(path: path, setName: name, reason: error.message)
            }
            throw CatalogError.commitFailed(path: path, setName: name, reason: error.message)
        }
    }

    /// Throws `CatalogError.claimLost` unless `claim.worker` holds the set; locks the claim's row.
    private func expect(_ claim: ClaimedSet, _ db: any SQLConnection) throws {
        let holder = try db.scalar(String.self, "SELECT worker_id FROM set_claim WHERE set_name = ?" + db.dialect.lockingRead,
                                   [claim.setName.sqlValue])
        guard holder == claim.worker else {
            throw CatalogError.claimLost(path: path, setName: claim.setName, holder: holder)
        }
    }

    /// The set's agent, captures, then photos, then hits.
    static func insert(_ set: CommittedSet, _ db: any SQLConnection) throws {
        if let agent = set.agent {
            try upsert(agent, named: set.captures.contains { $0.agentName != nil }, db)
        }
        // The names the set's captures are taken under, for `list --agent` (migration v4).
        var names: Set<[String]> = []
        for capture in set.captures {
            if let id = capture.agentId, let name = capture.agentName { names.insert([id, name]) }
        }
        for pair in names {
            try db.execute("INSERT INTO agent_name (agent_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
                           pair.map(\.sqlValue))
        }
        for capture in set.captures { try db.insert(capture) }
        for photo in set.photos { try db.insert(photo) }
        for hit in set.hits { try db.insert(hit) }
    }

    private static func upsert(_ agent: Agent, named: Bool, _ db: any SQLConnection) throws {
        try db.execute("""
            INSERT INTO agent (id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                name = CASE WHEN ? THEN excluded.name ELSE agent.name END,
                last_seen = excluded.last_seen
            """, [agent.id.sqlValue, agent.name.sqlValue, agent.firstSeen.sqlValue, agent.lastSeen.sqlValue, named.sqlValue])
    }
}
