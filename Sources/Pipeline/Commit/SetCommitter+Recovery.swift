import Foundation

/// Step 4 of the commit protocol, and start-up recovery from the journals a crash left. Every step
/// here is idempotent: each looks at what is on disk and does only what is still to be done, so a
/// crash during recovery is recovered by the next start in turn.
extension SetCommitter {
    /// Finishes or undoes the commits a crash interrupted, from their journals: a commit whose rows
    /// exist is finished, one without rows is undone (the inbox still holds its originals). Removes
    /// the temporary files a killed process left beside the files a journal names, and empties staging.
    func recover() throws {
        try FileOperations.removeTemporaries(inFolders: [layout.journal])
        for path in try CommitJournal.pending(in: layout.journal) {
            guard let journal = try CommitJournal.read(path) else {
                // `FileOperations.write` names a journal only once all its bytes are flushed, and nothing
                // is placed before it has a name: an unreadable one was damaged afterwards. Its set is in
                // the inbox or catalogued (then its inbox copies are seen as duplicates); placed files
                // without rows are what `ingest verify` reports. Nothing is lost by removing it.
                logger.error("unreadable commit journal removed", metadata: ["journal": "\(path)"])
                try FileOperations.remove(path)
                continue
            }
            try FileOperations.removeTemporaries(inFolders: touchedFolders(of: journal))
            if try isCommitted(journal) {
                for (aside, error) in try finish(journal, at: path) {
                    logger.error("file left in the inbox", metadata: ["file": "\(aside.source)", "error": "\(error)"])
                }
                logger.notice("finished an interrupted commit", metadata: ["set": "\(journal.setName)"])
            } else {
                try undo(journal)
                try FileOperations.remove(path)
                logger.notice("undid an interrupted commit", metadata: ["set": "\(journal.setName)"])
            }
        }
        try? FileOperations.removeTree(layout.staging)
        try FileOperations.makeDirectories(layout.staging)
    }

    /// Step 4, once the rows exist: removes the originals from the inbox (`move`), sets rejects and
    /// duplicates aside, removes the emptied inbox folders, then the journal at `path`. Throws when
    /// the run must stop (the journal stays for `recover()`); returns the files that could not be set
    /// aside for another reason, which stay in the inbox.
    func finish(_ journal: CommitJournal, at path: String) throws -> [(aside: CommitJournal.Aside, error: FileOperationError)] {
        if (journal.originals ?? config.originals) == .move {
            for entry in journal.entries { try removeSource(entry.source, placedAt: layout.absolute(entry.original)) }
            if let context = journal.context { try removeSource(context.source, placedAt: layout.absolute(context.placed)) }
        }
        var leftInInbox: [(aside: CommitJournal.Aside, error: FileOperationError)] = []
        for aside in journal.asides ?? [] {
            do {
                try inInbox(aside.source) { try FileOperations.setAside($0, at: aside.destination, note: aside.note) }
                logger.info("file set aside", metadata: ["file": "\(aside.source)", "to": "\(aside.destination)"])
            } catch let error as FileOperationError where !error.isOutOfSpace {
                leftInInbox.append((aside, error))
            }
        }
        for folder in Set((journal.asides ?? []).map { ($0.destination as NSString).deletingLastPathComponent }) {
            try FileOperations.syncDirectory(folder)
        }
        try removeEmptiedFolders(journal)
        try FileOperations.remove(path)
        return leftInInbox
    }

    /// Removes what the commit placed, and the folders that held only that, so the library is as
    /// before it; the inbox still has the originals.
    func undo(_ journal: CommitJournal) throws {
        for entry in journal.entries {
            try removePlaced(layout.absolute(entry.original), keeping: entry.source)
            try FileOperations.remove(layout.absolute(entry.thumbnail))
            unlink(entry.staged)
        }
        if let context = journal.context { try removePlaced(layout.absolute(context.placed), keeping: context.source) }
        for folder in Set(journal.placed.map { (layout.absolute($0) as NSString).deletingLastPathComponent }) {
            FileOperations.removeEmptyFolders(folder, stoppingAt: layout.root)
        }
    }

    /// The journal's photos are committed in one transaction: all or none have rows. A journal that
    /// only sets files aside has nothing to commit and is always finished.
    private func isCommitted(_ journal: CommitJournal) throws -> Bool {
        guard !journal.entries.isEmpty else { return true }
        let known = try catalogue.photos(withSHA256: journal.entries.map(\.sha256))
        return journal.entries.contains { known[$0.sha256]?.originalPath == $0.original }
    }

    /// Removes an inbox file whose library copy is in place, unless it is no longer the file placed
    /// (replaced since): then it stays in the inbox, to be ingested anew.
    private func removeSource(_ source: String, placedAt placed: String) throws {
        try inInbox(source) { pinned in
            guard let inInbox = FileIdentity.of(pinned) else { return }
            guard let inLibrary = FileIdentity.of(placed), inInbox.hasSameContent(as: inLibrary) else {
                logger.warning("inbox file differs from its catalogued copy; left in the inbox", metadata: ["file": "\(source)"])
                return
            }
            try FileOperations.remove(pinned)
        }
    }

    /// Removes a placed copy of an inbox file. Should the inbox have lost its name meanwhile (not by
    /// our hand), the placed copy is linked back first: an undo never removes the last copy.
    private func removePlaced(_ placed: String, keeping source: String) throws {
        guard FileOperations.exists(placed) else { return }
        if !FileOperations.exists(source) {
            try FileOperations.makeDirectories((source as NSString).deletingLastPathComponent)
            try inInbox(source) { try FileOperations.link(placed, to: $0) }
        }
        try FileOperations.remove(placed)
    }

    /// Removes the inbox folders the commit emptied, up to the set folder itself, and flushes the
    /// removals (as `finish` flushes the quarantine's new names) before the journal goes: after a
    /// power cut an original must not reappear in the inbox once its journal is gone, or it would be
    /// taken for a duplicate.
    private func removeEmptiedFolders(_ journal: CommitJournal) throws {
        let setFolder = journal.setFolder ?? (config.inbox as NSString).appendingPathComponent(journal.setName)
        let inbox = (setFolder as NSString).deletingLastPathComponent
        var changed = Set<String>()
        for folder in Set(journal.sources.map { ($0 as NSString).deletingLastPathComponent }) {
            FileOperations.removeEmptyFolders(folder, stoppingAt: inbox)
            var current = folder
            while current.hasPrefix(inbox + "/"), changed.insert(current).inserted {
                current = (current as NSString).deletingLastPathComponent
            }
        }
        for folder in changed.union([inbox]) where FileOperations.exists(folder) { try FileOperations.syncDirectory(folder) }
    }

    /// The folders that hold the journal's destinations, where a killed copy or write left its temporary file.
    private func touchedFolders(of journal: CommitJournal) -> Set<String> {
        let destinations = journal.placed.map(layout.absolute) + (journal.asides ?? []).map(\.destination)
        return Set(destinations.map { ($0 as NSString).deletingLastPathComponent })
    }
}
