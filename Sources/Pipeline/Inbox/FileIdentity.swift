import Glibc
internal import SystemPackage

/// What tells a file's content apart without reading it: writing changes the size or the modification
/// time, replacing the file changes the inode. Recorded when a photo is read and compared before and
/// after it is placed in the library, so a file that changed meanwhile is never committed with stale data.
package struct FileIdentity: Codable, Sendable, Equatable {
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
    package var device: UInt64
    package var inode: UInt64

    /// The identity of what is at `path` now (a symbolic link itself, not its target); nil when nothing is.
    static func of(_ path: FilePath) -> FileIdentity? {
        guard let info = try? path.stat(followTargetSymlink: false) else { return nil }
        return FileIdentity(size: info.size, modifiedSeconds: Int64(info.st_mtim.tv_sec),
                            modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), device: UInt64(info.deviceID.rawValue),
                            inode: UInt64(info.inode.rawValue))
    }

    /// Same size and modification time: the same bytes, also for a copy on another file system
    /// (`FileOperations.copy` keeps the modification time).
    func hasSameContent(as other: FileIdentity) -> Bool {
        size == other.size && modifiedSeconds == other.modifiedSeconds && modifiedNanoseconds == other.modifiedNanoseconds
    }
}
