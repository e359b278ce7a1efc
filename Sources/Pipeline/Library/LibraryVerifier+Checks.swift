import Catalog
import Foundation
internal import SystemPackage

extension LibraryVerifier {
    /// The problems of one photo's original (hashed) and thumbnail (its header read).
    func fullCheck(_ photo: Photo) -> [LibraryProblem] {
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
            } else if let wanted = thumbnailWidth.map({ min($0, photo.width) }), photo.thumbWidth != wanted {
                problems.append(LibraryProblem(kind: .wrongThumbnail, path: photo.thumbPath,
                                               detail: "\(photo.thumbWidth) px wide, \(wanted) asked for by --width"))
            }
        } else {
            problems.append(LibraryProblem(kind: .wrongThumbnail, path: photo.thumbPath, detail: "not a readable image"))
        }
        return problems
    }

    /// The problems of one photo found without reading its files: the original's size and
    /// modification time against the catalogue's (the time when recorded), the thumbnail there.
    func quickCheck(_ photo: PhotoFiles) -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        if let info = try? layout.absolute(photo.originalPath).stat(followTargetSymlink: false) {
            if info.size != photo.byteSize {
                problems.append(LibraryProblem(kind: .changedOriginal, path: photo.originalPath,
                                               detail: "\(info.size) bytes, \(photo.byteSize) catalogued"))
            } else if let recorded = photo.originalModified,
                      Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) != recorded {
                problems.append(LibraryProblem(kind: .changedOriginal, path: photo.originalPath,
                                               detail: "modified since it was catalogued"))
            }
        } else {
            problems.append(LibraryProblem(kind: .missingOriginal, path: photo.originalPath, detail: "the file is gone"))
        }
        if ((try? layout.absolute(photo.thumbPath).stat(followTargetSymlink: false))?.size ?? 0) == 0 {
            problems.append(LibraryProblem(kind: .missingThumbnail, path: photo.thumbPath, detail: "the file is gone or empty"))
        }
        return problems
    }
}
