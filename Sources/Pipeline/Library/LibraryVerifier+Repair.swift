import Foundation
import Catalog
internal import SystemPackage

// What `verify(repairing: true)` does about a problem: thumbnails are made anew from their
// originals, unreferenced files are moved to `unreferencedFolder` with a `.reason` note (never
// deleted). Missing or changed originals and missing sidecars cannot be repaired and are passed
// on as they were found.
extension LibraryVerifier {
    /// `problems` (one batch's) with their missing or wrong thumbnails made anew, each marked
    /// repaired or given the reason it could not be.
    func repairThumbnails(_ problems: [LibraryProblem]) throws -> [LibraryProblem] {
        let thumbnails = Set(problems.filter { $0.kind == .missingThumbnail || $0.kind == .wrongThumbnail }.map(\.path))
        guard !thumbnails.isEmpty else { return problems }
        let photos = try catalogue.photos(withThumbPaths: thumbnails.sorted())
        let failed = Dictionary(try thumbnailer.regenerate(photos, width: thumbnailWidth).map { ($0.path, $0.reason) },
                                uniquingKeysWith: { first, _ in first })
        return problems.map { problem in
            guard thumbnails.contains(problem.path) else { return problem }
            var repaired = problem
            if let reason = failed[problem.path] {
                repaired.detail += "; not made anew: \(reason)"
            } else {
                repaired.repair = "made anew from the original"
            }
            return repaired
        }
    }

    /// The unreferenced file of `problem` moved out of the library, or the reason it was not.
    func setAside(_ problem: LibraryProblem) -> LibraryProblem {
        var result = problem
        do {
            let destination = try FileOperations.setAside(
                layout.absolute(problem.path), to: unreferencedFolder.appending(problem.path),
                label: "library/\(problem.path)", reason: "no catalogue row references it (found by ingest verify)")
            FileOperations.removeEmptyFolders(layout.absolute(problem.path).removingLastComponent(),
                                              stoppingAt: config.library)
            result.repair = "moved to \(destination)"
        } catch {
            result.detail += "; not set aside: \(error)"
        }
        return result
    }
}
