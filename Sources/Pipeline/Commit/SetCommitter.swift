import Catalog
import Foundation
import Logging

/// Commits analysed sets to the library and the catalogue. Only one committer runs at a time (the
/// writer queue), so it alone places files and writes rows.
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
final class SetCommitter {
    let config: PipelineConfig
    let layout: LibraryLayout
    let catalogue: Catalogue
    private let grouper: CaptureGrouper
    let logger: Logger

    init(config: PipelineConfig, layout: LibraryLayout, catalogue: Catalogue, logger: Logger) {
        self.config = config
        self.layout = layout
        self.catalogue = catalogue
        self.grouper = CaptureGrouper(gapSeconds: config.groupGapSeconds, mode: config.grouping)
        self.logger = logger
    }

    /// One set's commit, decided before anything moves: the journal to write, the rows to insert,
    /// and the report the set gets once both are done.
    struct SetPlan {
        var journal: CommitJournal
        /// Nil when no photo of the set is to be committed (its files are only set aside).
        var records: CommittedSet?
        var report: SetReport

        /// Nothing to place, insert or set aside.
        var isEmpty: Bool { journal.entries.isEmpty && (journal.asides ?? []).isEmpty }
    }

    /// Commits one analysed set, whole or not at all. Throws only what must stop the run (our
    /// storage is full or failing: no later set would fare better); after any other failure every
    /// file of the set stays in the inbox and is listed in the set's `failed` list.
    func commit(_ set: PhotoSet, results: [PhotoOutcome], runId: Int64?) throws -> SetReport {
        if let problem = try transientProblem(in: results) {
            logger.warning("set not committed, it stays in the inbox", metadata: ["set": "\(set.name)", "reason": "\(problem)"])
            return failed(set, results: results, reason: problem)
        }
        var plan = try self.plan(set, results: results, runId: runId)
        guard !plan.isEmpty else { return plan.report }
        let journalPath: String
        do {
            journalPath = try plan.journal.write(in: layout.journal)
            if let records = plan.records { try placeAndInsert(plan.journal, records, journalPath: journalPath) }
        } catch where !stopsTheRun(error) {
            logger.error("set not committed, it stays in the inbox", metadata: ["set": "\(set.name)", "error": "\(error)"])
            return failed(set, results: results, reason: "\(error)", contextProblem: plan.report.contextProblem)
        }
        // Committed: what is left can only be finished, by this call or, after a crash, by `recover()`.
        for (aside, error) in try finish(plan.journal, at: journalPath) {
            plan.report.quarantined = plan.report.quarantined.map { keptInInbox($0, aside, error) }
            plan.report.duplicates = plan.report.duplicates.map { keptInInbox($0, aside, error) }
        }
        return plan.report
    }

    /// Decides where each file of the set goes — committed as a photo, quarantined, or kept aside as
    /// a duplicate — and groups the photos into captures. Touches nothing but the staged thumbnails
    /// of duplicates, which are not needed.
    func plan(_ set: PhotoSet, results: [PhotoOutcome], runId: Int64?) throws -> SetPlan {
        var report = Self.report(of: set)
        let context = readContext(of: set, report: &report)
        var journal = CommitJournal(setName: set.name, setFolder: set.folder, originals: config.originals, entries: [],
                                    asides: [])
        var photos: [AnalysedPhoto] = []
        var firstInSet: [String: AnalysedPhoto] = [:]
        // Destinations already given out, so two files of the set never get the same one.
        var taken = Set<String>()
        func setAside(_ file: InboxFile, reason: String, folder: String) -> FileReport {
            let path = "\(file.setName)/\(file.relativePath)"
            let destination = FileOperations.unusedPath((folder as NSString).appendingPathComponent(path), taken: &taken)
            journal.asides?.append(.init(source: file.absolutePath, destination: destination,
                                         note: FileOperations.reasonNote(label: path, reason: reason)))
            return FileReport(path: path, reason: reason, keptAt: destination)
        }
        let known = try catalogue.photos(withSHA256: results.compactMap {
            if case .analysed(let photo) = $0 { photo.sha256 } else { nil }
        })
        for result in results {
            switch result {
            case .rejected(let file, let error):
                report.quarantined.append(setAside(file, reason: error.reason, folder: layout.quarantine))
            case .catalogued(let file, let existing):
                if try isAlreadyCatalogued(file, as: existing) {
                    report.alreadyCatalogued += 1
                } else {
                    report.duplicates.append(setAside(file, reason: Self.duplicateReason(existing), folder: layout.duplicates))
                }
            case .analysed(let photo):
                // A photo committed by an earlier set of this run, or twice in this set.
                if let existing = known[photo.sha256] {
                    unlink(photo.thumbnail.path)
                    report.duplicates.append(setAside(photo.file, reason: Self.duplicateReason(existing), folder: layout.duplicates))
                } else if let first = firstInSet[photo.sha256] {
                    unlink(photo.thumbnail.path)
                    report.duplicates.append(setAside(
                        photo.file, reason: "duplicate of \(first.file.setName)/\(first.file.relativePath) in the same set",
                        folder: layout.duplicates))
                } else {
                    firstInSet[photo.sha256] = photo
                    photos.append(photo)
                }
            }
        }
        if photos.isEmpty {
            if context != nil {
                logger.info("capture.json left in the inbox: no photo of its set was committed", metadata: ["set": "\(set.name)"])
            }
            return SetPlan(journal: journal, records: nil, report: report)
        }
        let records = prepare(&journal, photos: photos, set: set, context: context, runId: runId)
        report.photos = photos.count
        report.captures = records.captures.count
        return SetPlan(journal: journal, records: records, report: report)
    }

    /// A set's report before anything is done: what its listing found.
    private static func report(of set: PhotoSet) -> SetReport {
        var report = SetReport(name: set.name)
        report.ignored = set.ignored
        report.skipped = set.skipped
        return report
    }

    /// Why the set must wait for a later run: a file changed while it was read, or its thumbnail
    /// could not be staged. Throws when our storage is full, which must stop the run.
    private func transientProblem(in results: [PhotoOutcome]) throws -> String? {
        for case .rejected(let file, let error) in results where error.isTransient {
            if case .notStaged(let failure) = error, failure.isOutOfSpace { throw failure }
            return error == .changedWhileReading
                ? "\(file.setName)/\(file.relativePath) changed while being ingested"
                : "\(file.setName)/\(file.relativePath): \(error.reason)"
        }
        return nil
    }

    /// The report of a set that was not committed: every file stays in the inbox for the next run.
    private func failed(_ set: PhotoSet, results: [PhotoOutcome], reason: String,
                        contextProblem: FileReport? = nil) -> SetReport {
        for case .analysed(let photo) in results { unlink(photo.thumbnail.path) }
        var report = Self.report(of: set)
        report.contextProblem = contextProblem
        report.failed = set.files.map {
            FileReport(path: "\(set.name)/\($0.relativePath)", reason: "not committed: \(reason), will be retried",
                       keptAt: $0.absolutePath)
        }
        return report
    }

    /// In `copy` mode the inbox keeps its originals, so a photo catalogued from this very set and path
    /// is simply skipped; anything else catalogued already is a byte-identical duplicate.
    private func isAlreadyCatalogued(_ file: InboxFile, as existing: Photo) throws -> Bool {
        guard config.originals == .copy, existing.sourcePath == file.relativePath else { return false }
        return try catalogue.capture(idPrefix: existing.captureId)?.setName == file.setName
    }

    private static func duplicateReason(_ existing: Photo) -> String {
        "duplicate of \(existing.originalPath) (capture \(existing.captureId))"
    }

    /// The report of a file whose planned set-aside could not be done: it is still in the inbox.
    private func keptInInbox(_ report: FileReport, _ aside: CommitJournal.Aside, _ error: FileOperationError) -> FileReport {
        guard report.keptAt == aside.destination else { return report }
        return FileReport(path: report.path, reason: "\(report.reason); left in the inbox: \(error)", keptAt: aside.source)
    }

    /// The set's sidecar, or nil; one that cannot be used is reported, and left where it is.
    private func readContext(of set: PhotoSet, report: inout SetReport) -> CaptureContext? {
        guard let file = set.contextFile else { return nil }
        do {
            return try CaptureContext.load(path: file)
        } catch {
            logger.warning("capture.json not used, the set is ingested without agent context",
                           metadata: ["set": "\(set.name)", "error": "\(error.message)"])
            report.contextProblem = FileReport(path: "\(set.name)/\(CaptureContext.fileName)", reason: error.message,
                                               keptAt: file)
            return nil
        }
    }

    /// Groups the photos into captures and fills the journal with where each file goes; returns the rows.
    private func prepare(_ journal: inout CommitJournal, photos: [AnalysedPhoto], set: PhotoSet,
                         context: CaptureContext?, runId: Int64?) -> CommittedSet {
        let setName = set.name
        var taken = Set<String>()
        var records = CommittedSet(captures: [], photos: [], hits: [])
        let now = CaptureTime(utc: Date().timeIntervalSince1970, offsetSeconds: 0, hasFraction: false, source: .fileTime).iso8601
        if let context, let source = set.contextFile {
            let placed = FileOperations.unusedPath(layout.absolute(layout.contextPath(set: setName)), taken: &taken)
            journal.context = .init(source: source, placed: layout.relative(placed))
            records.agent = Agent(id: context.agentId, name: context.agentName ?? context.agentId, firstSeen: now, lastSeen: now)
        }
        for group in grouper.group(photos) {
            let captureId = UUID().uuidString.lowercased()
            for (position, photo) in group.photos.enumerated() {
                let photoId = UUID().uuidString.lowercased()
                let original = FileOperations.unusedPath(layout.absolute(layout.originalPath(set: setName, file: photo.file.relativePath)), taken: &taken)
                let thumb = FileOperations.unusedPath(layout.absolute(layout.thumbPath(set: setName, file: photo.file.relativePath)), taken: &taken)
                journal.entries.append(.init(source: photo.file.absolutePath, original: layout.relative(original),
                                             thumbnail: layout.relative(thumb), staged: photo.thumbnail.path,
                                             sha256: photo.sha256, identity: photo.source))
                records.photos.append(Photo(analysed: photo, id: photoId, captureId: captureId, position: position,
                                            originalPath: layout.relative(original), thumbPath: layout.relative(thumb)))
                records.hits += photo.barcodes.map { BarcodeHit(reading: $0, photoId: photoId) }
            }
            records.captures.append(Capture(group: group, id: captureId, runId: runId, setName: setName, createdAt: now,
                                            context: context, contextPath: journal.context?.placed))
        }
        return records
    }

    /// Steps 2 and 3; on failure the placed files are removed again and the journal with them, or,
    /// when that fails too, left for `recover()` at the next start.
    private func placeAndInsert(_ journal: CommitJournal, _ records: CommittedSet, journalPath: String) throws {
        do {
            try placeFiles(journal)
            try catalogue.commit(records)
        } catch {
            do {
                try undo(journal)
                try FileOperations.remove(journalPath)
            } catch let undoError {
                logger.error("placed files left for the next start to remove", metadata: [
                    "set": "\(journal.setName)", "journal": "\(journalPath)", "error": "\(undoError)"])
            }
            throw error
        }
    }

    /// Step 2: places originals, thumbnails and the sidecar. Throws `ChangedFileError` when an
    /// original is not what was analysed, before or after it was placed.
    func placeFiles(_ journal: CommitJournal) throws {
        var folders = Set<String>()
        func makeFolder(of path: String) throws {
            let folder = (path as NSString).deletingLastPathComponent
            if folders.insert(folder).inserted { try FileOperations.makeDirectories(folder) }
        }
        for entry in journal.entries {
            let original = layout.absolute(entry.original)
            let thumb = layout.absolute(entry.thumbnail)
            try expectUnchanged(entry)
            try makeFolder(of: original)
            try makeFolder(of: thumb)
            switch journal.originals ?? config.originals {
            case .move: try FileOperations.link(entry.source, to: original)
            case .copy: try FileOperations.copy(entry.source, to: original)
            }
            try FileOperations.move(entry.staged, to: thumb)
        }
        if let context = journal.context {
            let placed = layout.absolute(context.placed)
            try makeFolder(of: placed)
            try FileOperations.link(context.source, to: placed)
        }
        folders.forEach(FileOperations.syncDirectory)
        // Again once all is placed: a hard link shares the inode, so a write since the first check
        // shows here; a copy holds the analysed bytes only if its source did not change meanwhile.
        for entry in journal.entries {
            try expectUnchanged(entry)
            try expectUnchanged(entry, at: layout.absolute(entry.original))
        }
    }

    /// Throws `ChangedFileError` unless the file at `path` (the entry's source by default) has the
    /// size and modification time the original had when it was analysed (and its inode, for the source).
    private func expectUnchanged(_ entry: CommitJournal.Entry, at path: String? = nil) throws {
        guard let recorded = entry.identity else { return }
        let now = FileIdentity.of(path ?? entry.source)
        let same = path == nil ? now == recorded : now?.hasSameContent(as: recorded) == true
        if !same { throw ChangedFileError(path: entry.source) }
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

/// An original changed on disk between its analysis and its commit: its set is not committed with
/// stale data, but stays in the inbox for the next run.
struct ChangedFileError: Error, CustomStringConvertible {
    var path: String

    var description: String { "\(path) changed while being ingested" }
}

/// Where things live in the library. Paths in the catalogue are relative to its root.
struct LibraryLayout {
    var root: String
    var quarantine: String

    var staging: String { (root as NSString).appendingPathComponent(".staging") }
    var journal: String { (root as NSString).appendingPathComponent(".journal") }
    var duplicates: String { (quarantine as NSString).appendingPathComponent("duplicates") }

    func originalPath(set: String, file: String) -> String { "originals/\(set)/\(file)" }

    /// Where a set's `capture.json` is kept: beside its originals.
    func contextPath(set: String) -> String { originalPath(set: set, file: CaptureContext.fileName) }

    func thumbPath(set: String, file: String) -> String {
        "thumbs/\(set)/\((file as NSString).deletingPathExtension).jpg"
    }

    func absolute(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    func relative(_ absolute: String) -> String {
        absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : absolute
    }
}
