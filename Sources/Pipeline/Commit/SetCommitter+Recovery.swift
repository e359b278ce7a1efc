import FileSystem
import Foundation
internal import SystemPackage
import Logging
import Catalog
import Vocabulary

/// Step 4 of the commit protocol, and start-up recovery from the journals a crash left. Every step
/// here is idempotent: each looks at what is on disk and does only what is still to be done, so a
/// crash during recovery is recovered by the next start in turn.
extension SetCommitter {
    /// Finishes or undoes the commits a crash interrupted, from their journals: a commit whose rows
    /// exist is finished, one without rows is undone (the inbox still holds its originals). Removes
    /// the temporary files a killed process left beside the files a journal names, and empties
    /// staging. With workers sharing the catalogue, only journals whose set this worker can claim
    /// (their worker is gone, or let the set go) are recovered, and only the journal and staging
    /// folders of workers whose lease has lapsed are cleared.
    func recover() throws {
        let gone = try worker.goneWorkersFolders({ try CommitJournal.workerFolders(in: layout.journal) }, own: true)
        try FileOperations.removeTemporaries(inFolders: Set([layout.journal] + gone.map { layout.journal.appending($0) }))
        for path in try CommitJournal.pending(in: layout.journal) {
            guard let read = try readUnlessGone(path) else { continue }
            guard let journal = read else {
                // `FileOperations.write` names a journal only once all its bytes are flushed, and nothing
                // is placed before it has a name: an unreadable one was damaged afterwards. Its set is in
                // the inbox or catalogued (then its inbox copies are seen as duplicates); placed files
                // without rows are what `ingest verify` reports. Nothing is lost by removing it.
                logger.error("unreadable commit journal removed", metadata: ["journal": "\(path)"])
                try removeJournal(at: path)
                continue
            }
            guard case .claimed = try worker.claim(journal.setName) else { continue }
            defer { worker.release(journal.setName) }
            try recover(journal, at: path)
        }
        for folder in gone where folder != worker.id {
            FileOperations.removeEmptyFolders(layout.journal.appending(folder), stoppingAt: layout.journal)
        }
        try clearStaging()
    }

    /// Finishes or undoes the journals other workers left for the set `name`, which this worker
    /// has just taken over from one of them.
    func recover(set name: String) throws {
        try CommitJournal.removeUnnamed(in: layout.journal, set: name)
        for path in try CommitJournal.pending(in: layout.journal, set: name) {
            guard let read = try readUnlessGone(path) else { continue }
            guard let journal = read else {
                logger.error("unreadable commit journal removed", metadata: ["journal": "\(path)"])
                try removeJournal(at: path)
                continue
            }
            try FileOperations.removeTemporaries(inFolders: [path.removingLastComponent()])
            try recover(journal, at: path)
        }
    }

    /// The journal at `path` (nil inside when damaged: `CommitJournal.read`), or nil when it is
    /// gone: its worker finished it since the folder was listed.
    private func readUnlessGone(_ path: FilePath) throws(FileOperationError) -> CommitJournal?? {
        do {
            return .some(try CommitJournal.read(path))
        } catch where error.code == ENOENT {
            return nil
        }
    }

    /// Finishes the commit of `journal` when its rows exist, else undoes it.
    private func recover(_ journal: CommitJournal, at path: FilePath) throws {
        try FileOperations.removeTemporaries(inFolders: touchedFolders(of: journal))
        if try isCommitted(journal) {
            for (aside, error) in try finish(journal, at: path) {
                logger.error("file left in the inbox", metadata: ["file": "\(aside.source)", "error": "\(error)"])
            }
            logger.notice("finished an interrupted commit", metadata: ["set": "\(journal.setName)", "journal": "\(path)"])
        } else {
            try undo(journal)
            try removeJournal(at: path)
            logger.notice("undid an interrupted commit", metadata: ["set": "\(journal.setName)", "journal": "\(path)"])
        }
    }

    /// The names of the workers' staging folders.
    private func stagingFolders() throws -> [String] {
        do {
            return try Directory.entries(of: layout.staging).filter { $0.isDirectory && !$0.isHidden }.map(\.name)
        } catch {
            if error == .noSuchFileOrDirectory { return [] }
            throw FileOperationError(operation: "list", path: layout.staging, error)
        }
    }

    /// Empties this worker's staging folder, and removes the staging of workers whose lease has
    /// lapsed (alone on the library, all of staging: also files older versions staged at its top).
    private func clearStaging() throws {
        if worker.isShared {
            for folder in try worker.goneWorkersFolders(stagingFolders, own: true) {
                try? FileOperations.removeTree(layout.staging.appending(folder))
            }
        } else {
            try? FileOperations.removeTree(layout.staging)
        }
        try FileOperations.makeDirectories(layout.staging)
    }

    /// Removes the journal at `path`, and its worker's folder with its last journal (the worker's
    /// next commit makes it again).
    func removeJournal(at path: FilePath) throws {
        try FileOperations.remove(path)
        FileOperations.removeEmptyFolders(path.removingLastComponent(), stoppingAt: layout.journal)
    }

    /// Once the run is over: removes this worker's staging folder, when it is empty, and the
    /// staging of workers that died meanwhile (their journals wait for whoever claims their sets).
    func tidy() {
        FileOperations.removeEmptyFolders(stagingFolder, stoppingAt: layout.staging)
        guard worker.isShared, let gone = try? worker.goneWorkersFolders(stagingFolders, own: false) else { return }
        for folder in gone {
            try? FileOperations.removeTree(layout.staging.appending(folder))
        }
    }

    /// Where this worker stages thumbnails.
    var stagingFolder: FilePath { layout.staging.appending(worker.id) }

    /// Step 4, once the rows exist: removes the originals from the inbox (`move`), sets rejects and
    /// duplicates aside, removes the emptied inbox folders, merges the set's captures into the one
    /// its `capture.json` names (`join`), then removes the journal at `path`. Throws when
    /// the run must stop (the journal stays for `recover()`); returns the files that could not be set
    /// aside for another reason, which stay in the inbox.
    func finish(_ journal: CommitJournal, at path: FilePath) throws -> [(aside: CommitJournal.Aside, error: FileOperationError)] {
        if (journal.originals ?? config.originals) == .move {
            for entry in journal.entries { try removeSource(FilePath(entry.source), placedAt: layout.absolute(entry.original)) }
            if let context = journal.context { try removeSource(FilePath(context.source), placedAt: layout.absolute(context.placed)) }
        }
        var leftInInbox: [(aside: CommitJournal.Aside, error: FileOperationError)] = []
        for aside in journal.asides ?? [] {
            do {
                try inInbox(FilePath(aside.source)) { try FileOperations.setAside($0, at: FilePath(aside.destination), note: aside.note) }
                logger.info("file set aside", metadata: ["file": "\(aside.source)", "to": "\(aside.destination)"])
            } catch let error as FileOperationError where !error.isOutOfSpace {
                leftInInbox.append((aside, error))
            }
        }
        for folder in Set((journal.asides ?? []).map { FilePath($0.destination).removingLastComponent() }) {
            try DurableFile.syncFolder(folder)
        }
        try removeEmptiedFolders(journal)
        if let join = journal.join { self.join(join, set: journal.setName) }
        try removeJournal(at: path)
        return leftInInbox
    }

    /// Removes what the commit placed, and the folders that held only that, so the library is as
    /// before it; the inbox still has the originals. `keepingThumbnails` moves the thumbnails back
    /// to staging instead, for the set to be committed again.
    func undo(_ journal: CommitJournal, keepingThumbnails: Bool = false) throws {
        for entry in journal.entries {
            let staged = FilePath(entry.staged)
            try removePlaced(layout.absolute(entry.original), keeping: FilePath(entry.source))
            if keepingThumbnails, FileOperations.exists(layout.absolute(entry.thumbnail)), !FileOperations.exists(staged) {
                try FileOperations.move(layout.absolute(entry.thumbnail), to: staged)
                continue
            }
            try FileOperations.remove(layout.absolute(entry.thumbnail))
            try? staged.remove()
        }
        if let context = journal.context { try removePlaced(layout.absolute(context.placed), keeping: FilePath(context.source)) }
        for folder in Set(journal.placed.map { layout.absolute($0).removingLastComponent() }) {
            FileOperations.removeEmptyFolders(folder, stoppingAt: layout.root)
        }
    }

    /// The journal's photos are committed in one transaction: all or none have rows. A journal that
    /// only sets files aside has nothing to commit and is always finished.
    func isCommitted(_ journal: CommitJournal) throws -> Bool {
        guard !journal.entries.isEmpty else { return true }
        let known = try catalogue.photos(withSHA256: journal.entries.map(\.sha256))
        return journal.entries.contains { known[$0.sha256]?.originalPath == $0.original }
    }

    /// Removes an inbox file whose library copy is in place, unless it is no longer the file placed
    /// (replaced since): then it stays in the inbox, to be ingested anew.
    private func removeSource(_ source: FilePath, placedAt placed: FilePath) throws {
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
    private func removePlaced(_ placed: FilePath, keeping source: FilePath) throws {
        guard FileOperations.exists(placed) else { return }
        if !FileOperations.exists(source) {
            try FileOperations.makeDirectories(source.removingLastComponent())
            try inInbox(source) { try FileOperations.link(placed, to: $0) }
        }
        try FileOperations.remove(placed)
    }

    /// Removes the inbox folders the commit emptied, up to the set folder itself, and flushes the
    /// removals (as `finish` flushes the quarantine's new names) before the journal goes: after a
    /// power cut an original must not reappear in the inbox once its journal is gone, or it would be
    /// taken for a duplicate.
    private func removeEmptiedFolders(_ journal: CommitJournal) throws {
        let setFolder = journal.setFolder.map { FilePath($0) } ?? config.inbox.appending(journal.setName)
        let inbox = setFolder.removingLastComponent()
        var changed = Set<FilePath>()
        for folder in Set(journal.sources.map { FilePath($0).removingLastComponent() }) {
            FileOperations.removeEmptyFolders(folder, stoppingAt: inbox)
            var current = folder
            while current != inbox, current.starts(with: inbox), changed.insert(current).inserted {
                current.removeLastComponent()
            }
        }
        for folder in changed.union([inbox]) where FileOperations.exists(folder) { try DurableFile.syncFolder(folder) }
    }

    /// The folders that hold the journal's destinations, where a killed copy or write left its temporary file.
    private func touchedFolders(of journal: CommitJournal) -> Set<FilePath> {
        let destinations = journal.placed.map(layout.absolute) + (journal.asides ?? []).map { FilePath($0.destination) }
        return Set(destinations.map { $0.removingLastComponent() })
    }
}
