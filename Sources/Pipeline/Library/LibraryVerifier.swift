package import Catalog
import FileSystem
import Foundation
package import Logging
package import SystemPackage

/// Checks that the library folder and the catalogue agree, and repairs what can be repaired.
///
/// Every catalogued original must exist with its catalogued SHA-256, every thumbnail must exist with
/// its catalogued size, every kept `capture.json` must exist, and every file in the library must be
/// referenced by a row or held by a delete that can still be undone. Not checked: `.staging`,
/// `.journal`, `.inflight`, `.crashes` and the files an unfinished commit's journal names (the next run finishes or undoes
/// them), the catalogue's own files (`catalog.sqlite*`) and lock files (`*.lock`) at the library's root.
package final class LibraryVerifier: Sendable {
    /// How closely `verify` looks.
    package enum Depth: Sendable, Equatable {
        /// Every original hashed, every thumbnail's header read, every library file looked up.
        case full
        /// Sizes and modification times against the catalogue, no file read: for a daily check.
        case quick
        /// This many photos picked at random, checked fully; the library's files are not walked.
        case sample(Int)
    }

    let config: PipelineConfig
    let catalogue: Catalogue
    let logger: Logger
    let layout: LibraryLayout
    let thumbnailer: Thumbnailer
    /// The width every thumbnail should have (or its photo's, when narrower), checked by the full
    /// check and used by `repair`; nil to accept the width each thumbnail was recorded with.
    let thumbnailWidth: Int?
    private let onProgress: @Sendable (RunProgress) -> Void

    /// Photos read from the catalogue at a time: memory holds one batch whatever its size.
    static let batchSize = 2000

    /// - Parameters:
    ///   - thumbnailWidth: the width thumbnails should have (`verify --width`); nil for any.
    ///   - onProgress: called from worker threads after each photo; must be quick and thread-safe.
    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger, thumbnailWidth: Int? = nil,
                onProgress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.config = config
        self.thumbnailWidth = thumbnailWidth
        self.catalogue = catalogue
        self.logger = logger
        self.onProgress = onProgress
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        thumbnailer = Thumbnailer(config: config, catalogue: catalogue, logger: logger)
    }

    /// Where `repair(_:)` puts files no row references: `<quarantine>/unreferenced/<library path>`.
    package var unreferencedFolder: FilePath { config.quarantine.appending("unreferenced") }

    /// Compares the library with the catalogue, as closely as `depth` says, and with `repairing`
    /// repairs what it finds (see `repair(_:)`; not with a sample). Photos stream from the catalogue
    /// in batches checked on `workers` threads; library files are looked up as the walk finds them.
    /// Each problem goes to `onProblem` as soon as it is found (and repaired), one call at a time,
    /// from the calling thread or the walk's; the report keeps only counts, so memory holds a batch
    /// whatever the catalogue's size and however much of it is wrong.
    package func verify(_ depth: Depth = .full, repairing: Bool = false,
                       onProblem: @escaping @Sendable (LibraryProblem) -> Void) throws -> LibraryReport {
        let tally = ProblemTally(onProblem)
        if case .sample(let count) = depth {
            let photos = try catalogue.randomPhotos(count: count)
            let counter = ProgressCounter(photos: photos.count)
            var photosWithProblems = 0
            for start in stride(from: 0, to: photos.count, by: Self.batchSize) {
                let perPhoto = WorkerPool.map(Array(photos[start ..< min(start + Self.batchSize, photos.count)]),
                                              workers: config.workers) { photo in
                    defer { onProgress(counter.photoDone()) }
                    return fullCheck(photo)
                }
                photosWithProblems += perPhoto.filter { !$0.isEmpty }.count
                perPhoto.joined().forEach(tally.found)
            }
            let total = tally.total
            var report = LibraryReport(photos: photos.count, files: 0, problems: total.problems, repaired: total.repaired,
                                       sampledFrom: try catalogue.counts().photos)
            report.photosWithProblems = photosWithProblems
            return report
        }
        let counter = ProgressCounter(photos: try catalogue.counts().photos)
        let contexts = try catalogue.contextPaths()
        // The walk of the library for files no row references goes on beside the photos' checks:
        // each alone is bound by one core (the walk) or the workers' system calls.
        // Deleted captures' files, held for an undo until `ingest purge`, are the catalogue's too.
        let known = contexts.union(try inFlight()).union(try catalogue.heldFilePaths())
        let walk = WorkerPool.background { [self] in try walkForUnreferencedFiles(known: known, repairing: repairing, tally: tally) }
        var photos = 0
        func check<Item: Sendable>(_ batch: [Item], _ check: @escaping @Sendable (Item) -> [LibraryProblem]) throws {
            photos += batch.count
            let found = WorkerPool.map(batch, workers: config.workers) { item in
                defer { onProgress(counter.photoDone()) }
                return check(item)
            }.flatMap { $0 }
            try (repairing ? repairThumbnails(found) : found).forEach(tally.found)
        }
        if depth == .quick {
            try catalogue.forEachPhotoFilesBatch(size: Self.batchSize) { try check($0, quickCheck) }
        } else {
            try catalogue.forEachPhotoBatch(size: Self.batchSize) { try check($0, fullCheck) }
        }
        for path in contexts.sorted() where !FileOperations.exists(layout.absolute(path)) {
            tally.found(LibraryProblem(kind: .missingContext, path: path,
                                       detail: "its content is still in the catalogue's capture rows"))
        }
        let files = try walk.wait()
        let total = tally.total
        if repairing {
            logger.notice("library repaired", metadata: ["repaired": "\(total.repaired)", "left": "\(total.problems - total.repaired)"])
        }
        return LibraryReport(photos: photos, files: files, problems: total.problems, repaired: total.repaired)
    }

    /// Those of `paths` still unreferenced now: other workers sharing the library may have
    /// committed since the walk found them. A file placed before the walk found it had its journal
    /// written before that: the journal is still there (the commit is unfinished), or its rows
    /// exist, or (undone) the file is gone. The journals are listed before the rows are read.
    private func stillUnreferenced(_ paths: [String]) throws -> [String] {
        guard !paths.isEmpty else { return [] }
        let late = Set(try inFlight())
        let referenced = try catalogue.referencedPaths(among: paths)
        return paths.filter { !late.contains($0) && !referenced.contains($0) && FileOperations.exists(layout.absolute($0)) }
    }

    /// Library paths an unfinished commit placed or is about to place.
    private func inFlight() throws -> [String] {
        // A journal may be finished (and removed) by its worker between the listing and the read.
        try CommitJournal.pending(in: layout.journal).compactMap { path throws(FileOperationError) in
            do throws(FileOperationError) {
                return try CommitJournal.read(path)
            } catch where error.code == ENOENT {
                return nil
            }
        }.flatMap(\.placed)
    }

    /// How many files the library holds (symbolic links not followed; without what is not
    /// checked). Those neither `known` nor named by a photo row are looked up in batches as the walk
    /// finds them, and go to `tally` (set aside first, when `repairing`) batch by batch. Setting
    /// aside during the walk is safe: it lists each folder before visiting its entries, and passes
    /// over a folder that vanished, as one emptied by the repair does.
    private func walkForUnreferencedFiles(known: Set<String>, repairing: Bool, tally: ProblemTally) throws -> Int {
        var files = 0
        var pending: [String] = []
        func resolve() throws {
            let referenced = try catalogue.referencedPaths(among: pending)
            for path in try stillUnreferenced(pending.filter { !referenced.contains($0) }) {
                let problem = LibraryProblem(kind: .unreferenced, path: path, detail: "no catalogue row references it")
                tally.found(repairing ? setAside(problem) : problem)
            }
            pending.removeAll(keepingCapacity: true)
        }
        try Directory.walk(config.library) { entry, relative, depth in
            let path = relative.string
            if depth == 0 && isUnchecked(entry.name) { return false }
            if entry.isDirectory { return true }
            files += 1
            if !known.contains(path) { pending.append(path) }
            if pending.count == Self.batchSize { try resolve() }
            return false
        }
        try resolve()
        return files
    }

    /// Whether a name at the library's root is none of the library's business.
    private func isUnchecked(_ name: String) -> Bool {
        let catalogue = FilePath(config.catalog)
        let catalogueName = catalogue.lastComponent?.string ?? ""
        let catalogueHere = catalogue.removingLastComponent() == config.library
        return [".staging", ".journal", ".inflight", ".crashes"].contains(name) || name.hasPrefix("catalog.sqlite") || name.hasSuffix(".lock")
            || (catalogueHere && name.hasPrefix(catalogueName))
    }
}
