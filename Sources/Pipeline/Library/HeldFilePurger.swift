package import Catalog
import Foundation
package import Logging
internal import SystemPackage

/// Removes the files deleted captures kept for their undo (`ingest purge`).
///
/// The catalogue lets them go first, in one transaction (the deletes that held them can no longer
/// be undone); the files are removed afterwards, and folders left empty with them. A crash in
/// between leaves only files no row references and no edit holds, which `ingest verify --repair`
/// sets aside. The caller holds the library's lock.
package struct HeldFilePurger {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout

    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    /// Removes the files held by deletes made before `madeBefore` (ISO 8601 UTC; nil: all), the
    /// catalogue letting them go a batch of edits at a time. Files that cannot be removed stay in
    /// the library, unreferenced, and go to `onLeft` as they are met; the result counts both.
    package func purge(madeBefore: String?, onLeft: (FileReport) -> Void = { _ in }) throws -> HeldFilePurge {
        var result = HeldFilePurge()
        while true {
            let paths = try catalogue.releaseHeldFiles(madeBefore: madeBefore, purgedAt: Corrector.now())
            guard !paths.isEmpty else { break }
            for file in paths {
                let path = layout.absolute(file)
                do {
                    try FileOperations.remove(path)
                    result.removed += 1
                    FileOperations.removeEmptyFolders(path.removingLastComponent(), stoppingAt: config.library)
                } catch {
                    logger.error("file of a deleted capture left in the library", metadata: ["file": "\(path)", "error": "\(error)"])
                    result.left += 1
                    onLeft(FileReport(path: file, reason: "\(error)", keptAt: path.string))
                }
            }
        }
        logger.notice("deleted captures' files purged", metadata: ["removed": "\(result.removed)", "left": "\(result.left)"])
        return result
    }
}
