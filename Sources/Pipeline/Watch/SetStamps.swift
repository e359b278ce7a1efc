import Foundation
import SystemPackage

/// The size and modification time of each file of a set, to tell whether any of them changed.
public struct SetStamps: Equatable, Sendable {
    /// One file's size in bytes and modification time in nanoseconds since 1970.
    public struct Stamp: Equatable, Sendable {
        public var size: Int64
        public var modified: Int64

        public init(size: Int64, modified: Int64) {
            self.size = size
            self.modified = modified
        }
    }

    /// By path relative to the set folder.
    public var files: [String: Stamp]

    public init(_ files: [String: Stamp] = [:]) {
        self.files = files
    }

    /// The files of `set` and its `capture.json` as they are now (by lstat); files that are gone are
    /// left out, hidden ones were never listed.
    public init(of set: PhotoSet) {
        files = [:]
        let paths = set.files.map { ($0.relativePath, $0.absolutePath) }
            + (set.contextFile.map { [(CaptureContext.fileName, $0)] } ?? [])
        for (relative, absolute) in paths {
            guard let info = try? FilePath(absolute).stat(followTargetSymlink: false) else { continue }
            files[relative] = Stamp(size: info.size,
                                    modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
    }

    public var isEmpty: Bool { files.isEmpty }
}
