import Catalog
import FileSystem
import Foundation
import Logging
internal import SystemPackage

/// Carries out the plans of analysed sets (`CommitPlan`): places files in the library and writes
/// rows to the catalogue. Only one committer runs at a time (the writer queue), so it alone places
/// files and writes rows.
///
/// A set is committed whole or not at all. The order of steps for one set, chosen so that re-running
/// after a crash at any point converges (docs/commit-protocol.md):
/// 1. write a journal naming every file about to be placed in the library or set aside (flushed);
/// 2. place originals in the library as hard links (or flushed copies) and thumbnails from staging,
///    checking that no original changed since it was read — the inbox still holds every original;
/// 3. one database transaction inserts the set's captures, photos and barcode hits;
/// 4. only then remove the originals from the inbox (`move`), set rejects and duplicates aside with
///    their `.reason` notes, remove the emptied inbox folders, and delete the journal.
/// The set's `capture.json`, when valid, travels with its originals (`originals/<set>/capture.json`).
/// `recover()` (in `SetCommitter+Recovery.swift`) finishes or undoes whatever a journal left behind.
/// With workers sharing the catalogue, each writes its journals in a folder of its own
/// (`.journal/<worker>/<set>.json`), commits a set only while it holds the set's claim, and
/// recovers another worker's journal only once it holds that journal's set.
final class SetCommitter: Sendable {
    let config: PipelineConfig
    let layout: LibraryLayout
    let catalogue: Catalogue
    let logger: Logger
    let worker: WorkerSession

    init(config: PipelineConfig, layout: LibraryLayout, catalogue: Catalogue, logger: Logger, worker: WorkerSession? = nil) {
        self.config = config
        self.layout = layout
        self.catalogue = catalogue
        self.logger = logger
        self.worker = worker ?? .alone(catalogue: catalogue, logger: logger)
    }

    /// Where this worker writes its journals.
    var journalFolder: FilePath { layout.journal.appending(worker.id) }

    /// Thrown by `commit(_:)` when another worker committed one of the set's photos a moment before:
    /// the set's placed files are undone, its thumbnails back in staging, so that it can be
    /// planned again with that photo as a duplicate.
    struct LostRace: Error, CustomStringConvertible {
        var setName: String
        var reason: String
        var description: String { "a photo of set '\(setName)' was catalogued meanwhile (\(reason))" }
    }

    /// What the catalogue already holds of the set's files, for `CommitPlanner.triage`.
    func knownPhotos(among outcomes: [PhotoOutcome]) throws -> KnownPhotos {
        var known = KnownPhotos()
        known.byHash = try catalogue.photos(withSHA256: outcomes.compactMap {
            if case .analysed(let photo) = $0 { photo.sha256 } else { nil }
        })
        // In `copy` mode the inbox keeps its originals: a photo catalogued from this very set and
        // path is simply skipped; anything else catalogued already is a byte-identical duplicate.
        guard config.originals == .copy else { return known }
        for case .catalogued(let file, let existing) in outcomes where existing.sourcePath == file.relativePath {
            if try catalogue.capture(idPrefix: existing.captureId)?.setName == file.setName {
                known.catalogedFromHere.insert(file.relativePath)
            }
        }
        return known
    }

    /// Commits one planned set, whole or not at all. Throws only what must stop the run (our
    /// storage is full or failing: no later set would fare better); after any other failure every
    /// file of the set stays in the inbox and is listed in the set's `failed` list.
    func commit(_ plan: CommitPlan) throws -> SetReport {
        var report = plan.report
        // Kept until the commit is decided: after a lost race the set is planned again, and a
        // duplicate discarded now may be the photo kept then.
        var lostRace = false
        defer { if !lostRace { plan.discardedThumbnails.forEach { try? $0.remove() } } }
        if let problem = report.contextProblem {
            logger.warning("capture.json not used, the set is ingested without agent context",
                           metadata: ["set": "\(plan.set.name)", "error": "\(problem.reason)"])
        } else if plan.records == nil, plan.set.contextFile != nil {
            logger.info("capture.json left in the inbox: no photo of its set was committed", metadata: ["set": "\(plan.set.name)"])
        }
        guard !plan.isEmpty else { return report }
        guard worker.stillHolds(plan.set.name) else { return handedOver(plan, contextProblem: report.contextProblem) }
        let journalPath: FilePath
        do {
            journalPath = try plan.journal.write(in: journalFolder, name: CommitJournal.fileName(forSet: plan.set.name))
            if let records = plan.records { try placeAndInsert(plan.journal, records, journalPath: journalPath) }
        } catch let race as LostRace {
            lostRace = true
            throw race
        } catch CatalogError.claimLost {
            return handedOver(plan, contextProblem: report.contextProblem)
        } catch where !stopsTheRun(error) {
            // A worker that took the set over may have moved its originals away already.
            return notCommitted(plan.set, thumbnails: plan.journal.entries.map { FilePath($0.staged) }, reason: "\(error)", isError: true,
                                contextProblem: report.contextProblem)
        }
        // Committed: what is left can only be finished, by this call or, after a crash, by `recover()`.
        for (aside, error) in try finish(plan.journal, at: journalPath) {
            report.quarantined = report.quarantined.map { keptInInbox($0, aside, error) }
            report.duplicates = report.duplicates.map { keptInInbox($0, aside, error) }
        }
        return report
    }

    /// Merges a committed set's captures into the capture its `capture.json` names (`addTo`), as one
    /// edit anyone can undo; those merged already (by an interrupted run's commit) are left out. A
    /// merge that does not fit (the capture is gone, or carries another barcode) leaves the set's
    /// captures as they are, and says why in the log.
    func join(_ join: CommitJournal.Join, set: String) {
        let corrector = Corrector(catalogue: catalogue, logger: logger, origin: "capture flow (set \(set))")
        do {
            let left = try join.captures.filter { try catalogue.capture(id: $0) != nil }
            guard !left.isEmpty else { return }
            guard let found = try catalogue.capture(idPrefix: join.target) else { throw EditError.unknownCapture(join.target) }
            _ = try corrector.apply(.merge(target: found.id, others: left))
        } catch {
            logger.warning("the set's photos were not added to the capture its capture.json names; they stay a capture of their own",
                           metadata: ["set": "\(set)", "addTo": "\(join.target)", "error": "\(error)"])
        }
    }

    /// The report of a set not committed because of `reason` (an error of its commit, or what its
    /// photos' reads say to wait for): handed over when another worker took the set over meanwhile,
    /// whose moves may be what changed its files or failed the commit; else kept in the inbox, failed,
    /// for the next run.
    func notCommitted(_ set: PhotoSet, thumbnails: [FilePath], reason: String, isError: Bool = false,
                      contextProblem: FileReport? = nil) -> SetReport {
        if worker.hasLost(set.name) { return handedOver(set, thumbnails: thumbnails, contextProblem: contextProblem) }
        logger.log(level: isError ? .error : .warning, "set not committed, it stays in the inbox",
                   metadata: ["set": "\(set.name)", isError ? "error" : "reason": "\(reason)"])
        return keepInInbox(set, thumbnails: thumbnails, reason: reason, contextProblem: contextProblem)
    }

    /// The report of a set another worker took over before this one committed it: its files stay
    /// in the inbox for that worker (`SetReport.handedOver`).
    private func handedOver(_ plan: CommitPlan, contextProblem: FileReport?) -> SetReport {
        handedOver(plan.set, thumbnails: plan.journal.entries.map { FilePath($0.staged) }, contextProblem: contextProblem)
    }

    /// The report of `set`, which another worker took over: its staged `thumbnails` are removed,
    /// its files left in the inbox for that worker.
    private func handedOver(_ set: PhotoSet, thumbnails: [FilePath], contextProblem: FileReport? = nil) -> SetReport {
        logger.warning("set handed over: another worker took it over when this one's claim lapsed",
                       metadata: ["set": "\(set.name)"])
        return keepInInbox(set, thumbnails: thumbnails, reason: "another worker took the set over",
                           contextProblem: contextProblem, handedOver: true)
    }

    /// The report of a set that is not committed because of `reason`: every file stays in the
    /// inbox, `failed` (for the next run) or `handedOver` (to the worker that took the set over);
    /// its staged `thumbnails` are removed.
    func keepInInbox(_ set: PhotoSet, thumbnails: [FilePath], reason: String, contextProblem: FileReport? = nil,
                     handedOver: Bool = false) -> SetReport {
        thumbnails.forEach { try? $0.remove() }
        var report = SetReport(of: set)
        report.contextProblem = contextProblem
        let files = set.files.map {
            FileReport(path: "\(set.name)/\($0.relativePath)",
                       reason: "not committed: \(reason), " + (handedOver ? "left to that worker" : "will be retried"),
                       keptAt: $0.absolutePath.string)
        }
        if handedOver { report.handedOver = files } else { report.failed = files }
        return report
    }

    /// The report of a file whose planned set-aside could not be done: it is still in the inbox.
    private func keptInInbox(_ report: FileReport, _ aside: CommitJournal.Aside, _ error: FileOperationError) -> FileReport {
        guard report.keptAt == aside.destination else { return report }
        return FileReport(path: report.path, reason: "\(report.reason); left in the inbox: \(error)", keptAt: aside.source)
    }

    /// The catalogue's server went away during a commit that, once it was back, turned out not to
    /// be kept: the set stays in the inbox, and the run goes on.
    struct InterruptedCommit: Error, CustomStringConvertible {
        var cause: CatalogError
        var description: String { "the commit was cut off and not kept (\(cause))" }
    }

    /// Steps 2 and 3; on failure the placed files are removed again and the journal with them, or,
    /// when that fails too, left for `recover()` at the next start. Not after a lost claim: the set
    /// is another worker's now, and it finishes or undoes this journal. When the catalogue's
    /// server went away during the commit, whether the rows were kept is asked again once it is
    /// back: kept, the commit goes on; else it is undone.
    private func placeAndInsert(_ journal: CommitJournal, _ records: CommittedSet, journalPath: FilePath) throws {
        do {
            try placeFiles(journal)
            try catalogue.commit(records, claim: worker.commitClaim(journal.setName))
        } catch let error as CatalogError {
            switch error {
            case .claimLost:
                throw error
            case .unreachable:
                // Still away: the run stops, the journal stays for the next start.
                guard try !isCommitted(journal) else { return }
                try undoAndForget(journal, at: journalPath)
                throw InterruptedCommit(cause: error)
            case .alreadyCatalogued(_, let setName, let reason):
                try undoAndForget(journal, at: journalPath, keepingThumbnails: true)
                throw LostRace(setName: setName, reason: reason)
            default:
                undoOrLeave(journal, at: journalPath)
                throw error
            }
        } catch {
            undoOrLeave(journal, at: journalPath)
            throw error
        }
    }

    /// Undoes the placed files and removes the journal; when that fails, leaves both for `recover()`.
    private func undoOrLeave(_ journal: CommitJournal, at journalPath: FilePath) {
        do {
            try undoAndForget(journal, at: journalPath)
        } catch let undoError {
            logger.error("placed files left for the next start to remove", metadata: [
                "set": "\(journal.setName)", "journal": "\(journalPath)", "error": "\(undoError)"])
        }
    }

    private func undoAndForget(_ journal: CommitJournal, at journalPath: FilePath, keepingThumbnails: Bool = false) throws {
        try undo(journal, keepingThumbnails: keepingThumbnails)
        try removeJournal(at: journalPath)
    }

    /// Step 2: places originals, thumbnails and the sidecar. Throws `ChangedFileError` when an
    /// original is not what was analysed, before or after it was placed.
    func placeFiles(_ journal: CommitJournal) throws {
        var folders = Set<FilePath>()
        func makeFolder(of path: FilePath) throws {
            let folder = path.removingLastComponent()
            if folders.insert(folder).inserted { try FileOperations.makeDirectories(folder) }
        }
        for entry in journal.entries {
            let original = layout.absolute(entry.original)
            let thumb = layout.absolute(entry.thumbnail)
            try expectUnchanged(entry)
            try makeFolder(of: original)
            try makeFolder(of: thumb)
            switch journal.originals ?? config.originals {
            case .move: try inInbox(FilePath(entry.source)) { try FileOperations.link($0, to: original) }
            case .copy: try inInbox(FilePath(entry.source)) { try FileOperations.copy($0, to: original) }
            }
            try FileOperations.move(FilePath(entry.staged), to: thumb)
        }
        if let context = journal.context {
            let placed = layout.absolute(context.placed)
            try makeFolder(of: placed)
            try inInbox(FilePath(context.source)) { try FileOperations.link($0, to: placed) }
        }
        for folder in folders { try DurableFile.syncFolder(folder) }
        // Again once all is placed: a hard link shares the inode, so a write since the first check
        // shows here; a copy holds the analysed bytes only if its source did not change meanwhile.
        for entry in journal.entries {
            try expectUnchanged(entry)
            try expectUnchanged(entry, at: layout.absolute(entry.original))
        }
    }

    /// Throws `ChangedFileError` unless the file at `path` (the entry's source by default) has the
    /// size and modification time the original had when it was analysed (and its inode, for the source).
    private func expectUnchanged(_ entry: CommitJournal.Entry, at path: FilePath? = nil) throws {
        guard let recorded = entry.identity else { return }
        let now = try path.map(FileIdentity.of) ?? inInbox(FilePath(entry.source), FileIdentity.of)
        let same = path == nil ? now == recorded : now?.hasSameContent(as: recorded) == true
        if !same { throw ChangedFileError(path: entry.source) }
    }

    /// Runs `body` with a path to the inbox file `path` that cannot leave the inbox on the way
    /// (`ContainedPath`): a set folder swapped for a link after it was listed cannot make the commit
    /// read, link or remove a file elsewhere. Errors name `path`, not the path `body` was given.
    func inInbox<R>(_ path: FilePath, _ body: (FilePath) throws -> R) throws -> R {
        do {
            return try ContainedPath.withPath(path, below: config.inbox) { pinned in
                do {
                    return try body(pinned)
                } catch var error as FileOperationError {
                    error.operation = error.operation.replacingOccurrences(of: pinned.string, with: path.string)
                    if error.path == pinned { error.path = path }
                    throw error
                }
            }
        } catch let error as Errno {
            throw FileOperationError(operation: "reach, through real folders of the inbox,", path: path, error)
        }
    }

    /// Whether `error` means our storage is full or failing: no later set would fare better.
    private func stopsTheRun(_ error: Error) -> Bool {
        switch error {
        case let error as FileOperationError: error.isOutOfSpace
        case let error as CatalogError: error.isStorageFailure
        default: false
        }
    }
}
