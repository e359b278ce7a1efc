import Catalog
import Foundation

extension LibraryVerifier {
    /// Repairs what `report` found that can be repaired: thumbnails are made anew from their originals,
    /// unreferenced files are moved to `unreferencedFolder` with a `.reason` note (never deleted).
    /// Missing or changed originals and missing sidecars cannot be repaired and stay in the report.
    public func repair(_ report: LibraryReport) throws -> LibraryReport {
        var repaired = report
        let thumbnails = Set(report.problems.filter { $0.kind == .missingThumbnail || $0.kind == .wrongThumbnail }.map(\.path))
        let photos = try catalogue.photos(withThumbPaths: thumbnails.sorted())
        let failed = Dictionary(try thumbnailer.regenerate(photos, width: thumbnailWidth).failed.map { ($0.path, $0.reason) },
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
}
