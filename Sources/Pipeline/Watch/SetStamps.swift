import Foundation
internal import SystemPackage

/// The size and modification time of each file of a set, to tell whether any of them changed.
package struct SetStamps: Equatable, Sendable {
    /// One file's size in bytes and modification time in nanoseconds since 1970.
    package struct Stamp: Equatable, Sendable {
        package var size: Int64
        package var modified: Int64

        package init(size: Int64, modified: Int64) {
            self.size = size
            self.modified = modified
        }
    }

    /// By path relative to the set folder.
    package var files: [String: Stamp]

    package init(_ files: [String: Stamp] = [:]) {
        self.files = files
    }

    /// The files of `set` and its `capture.json` as they are now (by lstat); files that are gone are
    /// left out, hidden ones were never listed.
    package init(of set: PhotoSet) {
        files = [:]
        let paths = set.files.map { ($0.relativePath, $0.absolutePath) }
            + (set.contextFile.map { [(CaptureContext.fileName, $0)] } ?? [])
        for (relative, absolute) in paths {
            guard let info = try? absolute.stat(followTargetSymlink: false) else { continue }
            files[relative] = Stamp(size: info.size,
                                    modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
    }

    package var isEmpty: Bool { files.isEmpty }
}
