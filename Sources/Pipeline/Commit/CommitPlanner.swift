import Catalog
import FileSystem
import Foundation
internal import SystemPackage

/// Decides a set's commit: which files are new photos, which go aside and where, which rows the
/// catalogue gets. Pure: what it needs of the disk and the clock comes in as values or functions,
/// so every decision is testable without either. `SetCommitter` carries the plan out.
struct CommitPlanner: Sendable {
    var layout: LibraryLayout
    var originals: PipelineConfig.Originals
    /// Whether something is at an absolute path already (the library's or the quarantine's).
    var isTaken: @Sendable (FilePath) -> Bool = FileOperations.exists
    /// A new unique id for a capture or a photo.
    var newId: @Sendable () -> String = { UUID().uuidString.lowercased() }
    /// The time now, as the catalogue stores it.
    var now: @Sendable () -> String = { CaptureTime(recording: Date()).iso8601 }

    /// Why the set must wait for a later run, or nil: a file changed while it was read, or its
    /// thumbnail could not be staged. Throws when our storage is full, which must stop the run.
    static func reasonToWait(_ outcomes: [PhotoOutcome]) throws -> String? {
        for case .rejected(let file, let error) in outcomes where error.isTransient {
            if case .notStaged(let failure) = error, failure.isOutOfSpace { throw failure }
            return error == .changedWhileReading
                ? "\(file.setName)/\(file.relativePath) changed while being ingested"
                : "\(file.setName)/\(file.relativePath): \(error.reason)"
        }
        return nil
    }

    /// Sorts the set's outcomes: rejects, duplicates (of the catalogue, or twice in the set) and
    /// files skipped apart from the new photos.
    func triage(_ outcomes: [PhotoOutcome], known: KnownPhotos) -> SetTriage {
        var triage = SetTriage()
        var firstInSet: [String: AnalysedPhoto] = [:]
        for outcome in outcomes {
            switch outcome {
            case .rejected(let file, let error):
                triage.rejects.append(.init(file: file, reason: error.reason, kind: error.kind))
            case .catalogued(let file, let existing):
                if known.catalogedFromHere.contains(file.relativePath) {
                    triage.alreadyCatalogued += 1
                } else {
                    triage.duplicates.append(.init(file: file, reason: Self.duplicateReason(existing)))
                }
            case .analysed(let photo):
                // A photo committed by an earlier set of this run, or twice in this set.
                if let existing = known.byHash[photo.sha256] {
                    triage.duplicates.append(.init(file: photo.file, reason: Self.duplicateReason(existing)))
                    triage.discardedThumbnails.append(photo.thumbnail.path)
                } else if let first = firstInSet[photo.sha256] {
                    triage.duplicates.append(.init(
                        file: photo.file, reason: "duplicate of \(first.file.setName)/\(first.file.relativePath) in the same set"))
                    triage.discardedThumbnails.append(photo.thumbnail.path)
                } else {
                    firstInSet[photo.sha256] = photo
                    triage.newPhotos.append(photo)
                }
            }
        }
        return triage
    }

    /// The plan for `set`: where each file goes, and the rows of its `captures` (the new photos,
    /// grouped). `context` is the set's sidecar as read, nil without one.
    func plan(_ set: PhotoSet, triage: SetTriage, captures: [PhotoGroup<AnalysedPhoto>],
              context: Result<CaptureContext, CaptureContextError>?, runId: Int64?) -> CommitPlan {
        var report = SetReport(of: set)
        report.alreadyCatalogued = triage.alreadyCatalogued
        var journal = CommitJournal(setName: set.name, setFolder: set.folder.string, originals: originals, entries: [], asides: [])
        // Destinations already given out, so two files of the set never get the same one.
        var taken = Set<FilePath>()
        func setAside(_ aside: SetTriage.Aside, in folder: FilePath) -> FileReport {
            let path = "\(aside.file.setName)/\(aside.file.relativePath)"
            let destination = FileOperations.unusedPath(folder.appending(path),
                                                        taken: &taken, inUse: isTaken)
            journal.asides?.append(.init(source: aside.file.absolutePath.string, destination: destination.string,
                                         note: FileOperations.reasonNote(label: path, reason: aside.reason)))
            return FileReport(path: path, reason: aside.reason, keptAt: destination.string, kind: aside.kind)
        }
        report.quarantined = triage.rejects.map { setAside($0, in: layout.quarantine) }
        report.duplicates = triage.duplicates.map { setAside($0, in: layout.duplicates) }
        if case .failure(let problem) = context {
            report.contextProblem = FileReport(path: "\(set.name)/\(CaptureContext.fileName)", reason: problem.message,
                                               keptAt: problem.file)
        }
        var records: CommittedSet?
        if !captures.isEmpty {
            records = self.records(of: set, captures, context: try? context?.get(), runId: runId,
                                   journal: &journal, taken: &taken)
            report.photos = captures.reduce(0) { $0 + $1.photos.count }
            report.captures = captures.count
        }
        return CommitPlan(set: set, journal: journal, records: records, report: report,
                          discardedThumbnails: triage.discardedThumbnails)
    }

    /// The rows of the set's captures; fills the journal with where each photo's files and the
    /// sidecar go.
    private func records(of set: PhotoSet, _ captures: [PhotoGroup<AnalysedPhoto>], context: CaptureContext?,
                         runId: Int64?, journal: inout CommitJournal, taken: inout Set<FilePath>) -> CommittedSet {
        var records = CommittedSet(captures: [], photos: [], hits: [])
        let now = now()
        func place(_ relative: String) -> String {
            layout.relative(FileOperations.unusedPath(layout.absolute(relative), taken: &taken, inUse: isTaken))
        }
        if let context, let source = set.contextFile {
            journal.context = .init(source: source.string, placed: place(layout.contextPath(set: set.name)))
            if let agentId = context.agentId {
                records.agent = Agent(id: agentId, name: context.agentName ?? agentId, firstSeen: now, lastSeen: now)
            }
        }
        for group in captures {
            let captureId = newId()
            for (position, photo) in group.photos.enumerated() {
                let photoId = newId()
                let original = place(layout.originalPath(set: set.name, file: photo.file.relativePath))
                let thumb = place(layout.thumbPath(set: set.name, file: photo.file.relativePath))
                journal.entries.append(.init(source: photo.file.absolutePath.string, original: original, thumbnail: thumb,
                                             staged: photo.thumbnail.path.string, sha256: photo.sha256, identity: photo.source))
                records.photos.append(Photo(analysed: photo, id: photoId, captureId: captureId, position: position,
                                            originalPath: original, thumbPath: thumb))
                records.hits += photo.barcodes.map { BarcodeHit(reading: $0, photoId: photoId) }
            }
            records.captures.append(Capture(group: group, id: captureId, runId: runId, setName: set.name, createdAt: now,
                                            context: context, contextPath: journal.context?.placed))
        }
        if let addTo = context?.addTo { journal.join = .init(target: addTo, captures: records.captures.map(\.id)) }
        return records
    }

    private static func duplicateReason(_ existing: Photo) -> String {
        "duplicate of \(existing.originalPath) (capture \(existing.captureId))"
    }
}
