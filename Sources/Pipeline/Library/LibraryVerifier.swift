import Catalog
import Foundation
import Logging

/// Checks that the library folder and the catalogue agree, and repairs what can be repaired.
///
/// Every catalogued original must exist with its catalogued SHA-256, every thumbnail must exist with
/// its catalogued size, every kept `capture.json` must exist, and every file in the library must be
/// referenced by a row. Not checked: `.staging`, `.journal` and the files an unfinished commit's
/// journal names (the next run finishes or undoes them), the catalogue's own files
/// (`catalog.sqlite*`) and lock files (`*.lock`) at the library's root.
public final class LibraryVerifier: Sendable {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout
    private let thumbnailer: Thumbnailer

    public init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) throws {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        thumbnailer = try Thumbnailer(config: config, catalogue: catalogue, logger: logger)
    }

    /// Where `repair(_:)` puts files no row references: `<quarantine>/unreferenced/<library path>`.
    public var unreferencedFolder: String { (config.quarantine as NSString).appendingPathComponent("unreferenced") }

    /// Compares the library with the catalogue; reads and hashes every original (on `workers` threads).
    public func verify() throws -> LibraryReport {
        let photos = try catalogue.allPhotos()
        var problems = WorkerPool.map(photos, workers: config.workers, check).flatMap { $0 }
        let contexts = try catalogue.contextPaths()
        for path in contexts.sorted() where !FileOperations.exists(layout.absolute(path)) {
            problems.append(LibraryProblem(kind: .missingContext, path: path,
                                           detail: "its content is still in the catalogue's capture rows"))
        }
        let referenced = Set(photos.flatMap { [$0.originalPath, $0.thumbPath] }).union(contexts).union(inFlight())
        let files = try filesInLibrary()
        for path in files where !referenced.contains(path) {
            problems.append(LibraryProblem(kind: .unreferenced, path: path, detail: "no catalogue row references it"))
        }
        return LibraryReport(photos: photos.count, files: files.count, problems: problems)
    }

    /// Repairs what `report` found that can be repaired: thumbnails are made anew from their originals,
    /// unreferenced files are moved to `unreferencedFolder` with a `.reason` note (never deleted).
    /// Missing or changed originals and missing sidecars cannot be repaired and stay in the report.
    public func repair(_ report: LibraryReport) throws -> LibraryReport {
        var repaired = report
        let thumbnails = Set(report.problems.filter { $0.kind == .missingThumbnail || $0.kind == .wrongThumbnail }.map(\.path))
        let photos = try catalogue.allPhotos().filter { thumbnails.contains($0.thumbPath) }
        let failed = Dictionary(thumbnailer.regenerate(photos, width: nil).failed.map { ($0.path, $0.reason) },
                                uniquingKeysWith: { first, _ in first })
        for index in repaired.problems.indices {
            let problem = repaired.problems[index]
            switch problem.kind {
            case .missingThumbnail, .wrongThumbnail:
                if let reason = failed[problem.path] {
                    repaired.problems[index].detail += "; not made anew: \(reason)"
                } else {
                    repaired.problems[index].repair = "made anew from the original"
                }
            case .unreferenced:
                do {
                    let destination = try FileOperations.setAside(
                        layout.absolute(problem.path), to: (unreferencedFolder as NSString).appendingPathComponent(problem.path),
                        label: "library/\(problem.path)", reason: "no catalogue row references it (found by ingest verify)")
                    FileOperations.removeEmptyFolders((layout.absolute(problem.path) as NSString).deletingLastPathComponent,
                                                      stoppingAt: config.library)
                    repaired.problems[index].repair = "moved to \(destination)"
                } catch {
                    repaired.problems[index].detail += "; not set aside: \(error)"
                }
            case .missingOriginal, .changedOriginal, .missingContext:
                break
            }
        }
        logger.notice("library repaired", metadata: ["repaired": "\(report.problems.count - repaired.unrepaired.count)",
                                                     "left": "\(repaired.unrepaired.count)"])
        return repaired
    }

    /// The problems of one photo's original and thumbnail.
    private func check(_ photo: Photo) -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        let original = layout.absolute(photo.originalPath)
        if !FileOperations.exists(original) {
            problems.append(LibraryProblem(kind: .missingOriginal, path: photo.originalPath, detail: "the file is gone"))
        } else {
            do {
                let snapshot = try FileSnapshot.read(original, maxBytes: max(config.maxFileBytes, photo.byteSize))
                if snapshot.sha256 != photo.sha256 {
                    problems.append(LibraryProblem(kind: .changedOriginal, path: photo.originalPath,
                                                   detail: "its SHA-256 is no longer the catalogued \(photo.sha256)"))
                }
            } catch {
                problems.append(LibraryProblem(kind: .changedOriginal, path: photo.originalPath, detail: error.reason))
            }
        }
        if !FileOperations.exists(layout.absolute(photo.thumbPath)) {
            problems.append(LibraryProblem(kind: .missingThumbnail, path: photo.thumbPath, detail: "the file is gone"))
        } else if let size = thumbnailer.sizeOfThumbnail(at: photo.thumbPath) {
            if size != (photo.thumbWidth, photo.thumbHeight) {
                problems.append(LibraryProblem(kind: .wrongThumbnail, path: photo.thumbPath, detail:
                    "\(size.width)×\(size.height) on disk, \(photo.thumbWidth)×\(photo.thumbHeight) catalogued"))
            }
        } else {
            problems.append(LibraryProblem(kind: .wrongThumbnail, path: photo.thumbPath, detail: "not a readable image"))
        }
        return problems
    }

    /// Library paths an unfinished commit placed or is about to place.
    private func inFlight() -> [String] {
        CommitJournal.pending(in: layout.journal).compactMap(CommitJournal.read).flatMap(\.placed)
    }

    /// Every file below the library (symbolic links not followed), library-relative, sorted; without
    /// what is not checked.
    private func filesInLibrary() throws -> [String] {
        var found: [String] = []
        try Directory.walk(config.library) { entry, path, depth in
            if depth == 0 && isUnchecked(entry.name) { return false }
            if !entry.isDirectory { found.append(path) }
            return true
        }
        return found.sorted()
    }

    /// Whether a name at the library's root is none of the library's business.
    private func isUnchecked(_ name: String) -> Bool {
        let catalogueName = (config.catalog as NSString).lastPathComponent
        let catalogueHere = (config.catalog as NSString).deletingLastPathComponent == config.library
        return name == ".staging" || name == ".journal" || name.hasPrefix("catalog.sqlite") || name.hasSuffix(".lock")
            || (catalogueHere && name.hasPrefix(catalogueName))
    }
}
