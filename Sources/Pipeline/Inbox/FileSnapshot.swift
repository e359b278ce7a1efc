import Foundation
import Imaging

/// A photo file's bytes, read once, with the identity it had when read.
struct FileSnapshot {
    var bytes: [UInt8]
    var size: Int64
    var modified: timespec
    var device: UInt64
    var inode: UInt64

    /// Reads a whole regular file without following a symbolic link and without blocking on a FIFO.
    static func read(_ path: String, maxBytes: Int64) throws(PhotoError) -> FileSnapshot {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ELOOP { throw .symbolicLink }
            throw .unreadable(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(kind: fileKind(info.st_mode)) }
        let size = Int64(info.st_size)
        guard size > 0 else { throw .empty }
        guard size <= maxBytes else { throw .tooLarge(bytes: size, limit: maxBytes) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var filled = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { buffer -> Int32? in
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { break }
                filled += n
            }
            return nil
        }
        if let failure { throw .unreadable(String(cString: strerror(failure))) }
        var after = stat()
        guard filled == bytes.count, fstat(fd, &after) == 0, after.st_size == info.st_size,
              after.st_mtim.tv_sec == info.st_mtim.tv_sec, after.st_mtim.tv_nsec == info.st_mtim.tv_nsec else {
            throw .changedWhileReading
        }
        return FileSnapshot(bytes: bytes, size: size, modified: info.st_mtim,
                            device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The file's identity when it was read, to notice a later change before it is committed.
    var identity: FileIdentity {
        FileIdentity(size: size, modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
                     device: device, inode: inode)
    }

    /// Lower-case hex SHA-256 of the bytes.
    var sha256: String { Digest.sha256(bytes) }
}

/// A short name for a non-regular file type, for reasons shown to the user.
func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "directory"
    case S_IFLNK: "symbolic link"
    case S_IFIFO: "FIFO"
    case S_IFSOCK: "socket"
    case S_IFCHR: "character device"
    case S_IFBLK: "block device"
    default: "special file"
    }
}

/// What tells a file's content apart without reading it: writing changes the size or the modification
/// time, replacing the file changes the inode. Recorded when a photo is read and compared before and
/// after it is placed in the library, so a file that changed meanwhile is never committed with stale data.
public struct FileIdentity: Codable, Sendable, Equatable {
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    public var device: UInt64
    public var inode: UInt64

    /// The identity of what is at `path` now (a symbolic link itself, not its target); nil when nothing is.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
                            modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), device: UInt64(info.st_dev),
                            inode: UInt64(info.st_ino))
    }

    /// Same size and modification time: the same bytes, also for a copy on another file system
    /// (`FileOperations.copy` keeps the modification time).
    func hasSameContent(as other: FileIdentity) -> Bool {
        size == other.size && modifiedSeconds == other.modifiedSeconds && modifiedNanoseconds == other.modifiedNanoseconds
    }
}
