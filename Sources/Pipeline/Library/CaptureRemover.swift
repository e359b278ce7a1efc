import Catalog
import Foundation
import Logging

/// Deletes captures from the catalogue and their files from the library.
///
/// Rows go first, in one transaction: from then on the capture is gone. Its originals, thumbnails
/// and (when no other capture shares it) its `capture.json` are removed afterwards; a crash in between
/// leaves only files no row references, which `ingest verify --repair` sets aside. So at every
/// moment the capture is either whole or not there at all.
public struct CaptureRemover {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout

    public init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    /// Deletes the capture whose id starts with `idPrefix`; nil when no capture does.
    ///
    /// Throws `CatalogError.ambiguousId` when several do. Files that cannot be removed stay in the
    /// library, unreferenced, and are listed in the result.
    public func delete(idPrefix: String) throws -> CaptureRemoval? {
        guard let found = try catalogue.capture(idPrefix: idPrefix),
              let removed = try catalogue.deleteCapture(id: found.id) else { return nil }
        logger.notice("capture deleted", metadata: ["capture": "\(removed.capture.id)", "photos": "\(removed.photos.count)"])
        let files = removed.photos.flatMap { [$0.originalPath, $0.thumbPath] } + (removed.unusedContextPath.map { [$0] } ?? [])
        var result = CaptureRemoval(capture: removed.capture, photos: removed.photos, removedFiles: [], leftFiles: [])
        for file in files {
            let path = layout.absolute(file)
            do {
                try FileOperations.remove(path)
                result.removedFiles.append(file)
                FileOperations.removeEmptyFolders((path as NSString).deletingLastPathComponent, stoppingAt: config.library)
            } catch {
                logger.error("file of a deleted capture left in the library", metadata: ["file": "\(path)", "error": "\(error)"])
                result.leftFiles.append(FileReport(path: file, reason: "\(error)", keptAt: path))
            }
        }
        return result
    }
}
