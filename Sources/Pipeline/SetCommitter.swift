import Catalog
import Foundation
import Logging

/// Commits analysed sets to the library and the catalogue. Only one committer runs at a time (the
/// writer queue), so it alone places files and writes rows.
///
/// The order of steps for one set, chosen so that a crash at any point loses nothing:
/// 1. write a journal naming every library file about to be placed (flushed);
/// 2. place originals in the library as hard links (or flushed copies) and thumbnails from staging —
///    the inbox still holds every original;
/// 3. one database transaction inserts the set's captures, photos and barcode hits;
/// 4. only then remove the originals from the inbox (`move`), quarantine rejects, delete the journal.
/// The set's `capture.json`, when valid, travels with its originals (`originals/<set>/capture.json`).
/// `recover()` finishes or undoes whatever a journal left behind: placed files whose rows exist were
/// committed (their inbox copies are removed); placed files without rows are removed again.
final class SetCommitter {
    private let config: PipelineConfig
    private let layout: LibraryLayout
    private let catalogue: Catalogue
    private let grouper: CaptureGrouper
    private let logger: Logger

    init(config: PipelineConfig, layout: LibraryLayout, catalogue: Catalogue, logger: Logger) {
        self.config = config
        self.layout = layout
        self.catalogue = catalogue
        self.grouper = CaptureGrouper(gapSeconds: config.groupGapSeconds, mode: config.grouping)
        self.logger = logger
    }

    /// Commits one analysed set. Throws only what must stop the run (a full disk); any other failure
    /// leaves the set's photos in the inbox and is reported in the set's `failed` list.
    func commit(_ set: PhotoSet, results: [PhotoOutcome], runId: Int64?) throws -> SetReport {
        var report = SetReport(name: set.name)
        report.ignored = set.ignored
        let context = readContext(of: set, report: &report)
        var photos: [AnalysedPhoto] = []
        var firstInSet: [String: AnalysedPhoto] = [:]
        let known = try catalogue.photos(withSHA256: results.compactMap {
            if case .analysed(let photo) = $0 { photo.sha256 } else { nil }
        })
        for result in results {
            switch result {
            case .rejected(let file, let error):
                report.quarantined.append(try quarantine(file, reason: error.reason, folder: layout.quarantine))
            case .catalogued(let file, let existing):
                try setAside(file, cataloguedAs: existing, report: &report)
            case .analysed(let photo):
                // A photo committed by an earlier set of this run, or twice in this set.
                if let existing = known[photo.sha256] {
                    unlink(photo.thumbnail.path)
                    try setAside(photo.file, cataloguedAs: existing, report: &report)
                } else if let first = firstInSet[photo.sha256] {
                    unlink(photo.thumbnail.path)
                    report.duplicates.append(try quarantine(
                        photo.file, reason: "duplicate of \(first.file.setName)/\(first.file.relativePath) in the same set",
                        folder: layout.duplicates))
                } else {
                    firstInSet[photo.sha256] = photo
                    photos.append(photo)
                }
            }
        }
        defer { FileOperations.removeEmptyFolders(set.folder, stoppingAt: config.inbox) }
        guard !photos.isEmpty else {
            if context != nil {
                logger.info("capture.json left in the inbox: no photo of its set was committed", metadata: ["set": "\(set.name)"])
            }
            return report
        }
        do {
            report.captures = try place(grouper.group(photos), set: set, context: context, runId: runId)
            report.photos = photos.count
        } catch let error as FileOperationError where error.isOutOfSpace {
            throw error
        } catch {
            logger.error("set not committed, its photos stay in the inbox",
                         metadata: ["set": "\(set.name)", "error": "\(error)"])
            report.failed += photos.map {
                FileReport(path: "\(set.name)/\($0.file.relativePath)", reason: "not committed: \(error)",
                           keptAt: $0.file.absolutePath)
            }
            photos.forEach { unlink($0.thumbnail.path) }
        }
        return report
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

    /// A photo whose bytes are catalogued already. In `copy` mode the inbox keeps its originals, so a
    /// photo catalogued from this very set and path is simply skipped; anything else is a
    /// byte-identical duplicate and goes to the quarantine's `duplicates` folder.
    private func setAside(_ file: InboxFile, cataloguedAs existing: Photo, report: inout SetReport) throws {
        if config.originals == .copy, existing.sourcePath == file.relativePath,
           try catalogue.capture(idPrefix: existing.captureId)?.setName == file.setName {
            report.alreadyCatalogued += 1
            return
        }
        report.duplicates.append(try quarantine(
            file, reason: "duplicate of \(existing.originalPath) (capture \(existing.captureId))", folder: layout.duplicates))
    }

    /// Steps 1–4 of the protocol for the set's captures.
    private func place(_ groups: [PhotoGroup<AnalysedPhoto>], set: PhotoSet, context: CaptureContext?,
                       runId: Int64?) throws -> Int {
        let setName = set.name
        var taken = Set<String>()
        var journal = CommitJournal(setName: setName, entries: [])
        var records = CommittedSet(captures: [], photos: [], hits: [])
        let now = CaptureTime(utc: Date().timeIntervalSince1970, offsetSeconds: 0, hasFraction: false, source: .fileTime).iso8601
        if let context, let source = set.contextFile {
            let placed = FileOperations.unusedPath(layout.absolute(layout.contextPath(set: setName)), taken: &taken)
            journal.context = .init(source: source, placed: layout.relative(placed))
            records.agent = Agent(id: context.agentId, name: context.agentName ?? context.agentId, firstSeen: now, lastSeen: now)
        }
        for group in groups {
            let captureId = UUID().uuidString.lowercased()
            for (position, photo) in group.photos.enumerated() {
                let photoId = UUID().uuidString.lowercased()
                let original = FileOperations.unusedPath(layout.absolute(layout.originalPath(set: setName, file: photo.file.relativePath)), taken: &taken)
                let thumb = FileOperations.unusedPath(layout.absolute(layout.thumbPath(set: setName, file: photo.file.relativePath)), taken: &taken)
                journal.entries.append(.init(source: photo.file.absolutePath, original: layout.relative(original),
                                             thumbnail: layout.relative(thumb), staged: photo.thumbnail.path, sha256: photo.sha256))
                records.photos.append(Photo(analysed: photo, id: photoId, captureId: captureId, position: position,
                                            originalPath: layout.relative(original), thumbPath: layout.relative(thumb)))
                records.hits += photo.barcodes.map { BarcodeHit(reading: $0, photoId: photoId) }
            }
            records.captures.append(Capture(group: group, id: captureId, runId: runId, setName: setName, createdAt: now,
                                            context: context, contextPath: journal.context?.placed))
        }
        let journalPath = try journal.write(in: layout.journal)
        do {
            try placeFiles(journal)
            try catalogue.commit(records)
        } catch {
            undoPlacement(journal)
            try? FileOperations.remove(journalPath)
            throw error
        }
        if config.originals == .move {
            for entry in journal.entries { try FileOperations.remove(entry.source) }
            if let context = journal.context { try FileOperations.remove(context.source) }
        }
        try FileOperations.remove(journalPath)
        return records.captures.count
    }

    private func placeFiles(_ journal: CommitJournal) throws {
        var folders = Set<String>()
        for entry in journal.entries {
            let original = layout.absolute(entry.original)
            let thumb = layout.absolute(entry.thumbnail)
            for path in [original, thumb] {
                let folder = (path as NSString).deletingLastPathComponent
                if folders.insert(folder).inserted { try FileOperations.makeDirectories(folder) }
            }
            switch config.originals {
            case .move: try FileOperations.link(entry.source, to: original)
            case .copy: try FileOperations.copy(entry.source, to: original)
            }
            try FileOperations.move(entry.staged, to: thumb)
        }
        if let context = journal.context {
            let placed = layout.absolute(context.placed)
            let folder = (placed as NSString).deletingLastPathComponent
            if folders.insert(folder).inserted { try FileOperations.makeDirectories(folder) }
            try FileOperations.link(context.source, to: placed)
        }
        folders.forEach(FileOperations.syncDirectory)
    }

    private func undoPlacement(_ journal: CommitJournal) {
        for entry in journal.entries {
            if FileOperations.exists(layout.absolute(entry.original)) { unlink(layout.absolute(entry.original)) }
            if FileOperations.exists(layout.absolute(entry.thumbnail)) { unlink(layout.absolute(entry.thumbnail)) }
            unlink(entry.staged)
        }
        if let context = journal.context { unlink(layout.absolute(context.placed)) }
    }

    /// Finishes or undoes the commits a crash interrupted, from their journals; empties staging.
    func recover() throws {
        for path in CommitJournal.pending(in: layout.journal) {
            guard let journal = CommitJournal.read(path) else {
                logger.warning("unreadable commit journal left in place", metadata: ["journal": "\(path)"])
                continue
            }
            let known = try catalogue.photos(withSHA256: journal.entries.map(\.sha256))
            // The journal's files are one set, committed in one transaction: all or none have rows.
            let committed = journal.entries.contains { known[$0.sha256]?.originalPath == $0.original }
            let placed = journal.entries.flatMap { [$0.original, $0.thumbnail] } + (journal.context.map { [$0.placed] } ?? [])
            let sources = journal.entries.map { ($0.source, $0.original) } + (journal.context.map { [($0.source, $0.placed)] } ?? [])
            if !committed {
                for path in placed { try FileOperations.remove(layout.absolute(path)) }
            } else if config.originals == .move {
                for (source, original) in sources where FileOperations.exists(layout.absolute(original)) {
                    try FileOperations.remove(source)
                }
            }
            try FileOperations.remove(path)
            logger.notice("recovered an interrupted commit", metadata: ["set": "\(journal.setName)"])
        }
        try? FileManager.default.removeItem(atPath: layout.staging)
        try FileOperations.makeDirectories(layout.staging)
    }

    /// Moves a file out of the inbox into `folder/<set>/<path>` with a `.reason` note beside it.
    private func quarantine(_ file: InboxFile, reason: String, folder: String) throws -> FileReport {
        let path = "\(file.setName)/\(file.relativePath)"
        var taken = Set<String>()
        let destination = FileOperations.unusedPath((folder as NSString).appendingPathComponent(path), taken: &taken)
        logger.info("file set aside", metadata: ["file": "\(file.absolutePath)", "reason": "\(reason)"])
        do {
            try FileOperations.makeDirectories((destination as NSString).deletingLastPathComponent)
            try FileOperations.move(file.absolutePath, to: destination)
        } catch let error as FileOperationError where !error.isOutOfSpace {
            return FileReport(path: path, reason: "\(reason); left in the inbox: \(error)", keptAt: file.absolutePath)
        }
        let note = "file: \(path)\nreason: \(reason)\nat: \(Date())\n"
        try FileOperations.write(Array(note.utf8), to: destination + ".reason")
        return FileReport(path: path, reason: reason, keptAt: destination)
    }
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
