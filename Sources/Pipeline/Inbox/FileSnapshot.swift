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
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            throw error.code == ELOOP ? .symbolicLink : .unreadable(error.description)
        }
        return try file.closeAfter { () throws(PhotoError) in try read(file, maxBytes: maxBytes) }
    }

    private static func read(_ file: FileDescriptor, maxBytes: Int64) throws(PhotoError) -> FileSnapshot {
        let info = try unreadable { () throws(Errno) in try file.status() }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(kind: kind(of: info.st_mode)) }
        let size = Int64(info.st_size)
        guard size > 0 else { throw .empty }
        guard size <= maxBytes else { throw .tooLarge(bytes: size, limit: maxBytes) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let filled = try unreadable { () throws(Errno) in try file.read(into: &bytes) }
        let after = try unreadable { () throws(Errno) in try file.status() }
        guard filled == bytes.count, after.st_size == info.st_size,
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

    /// `body`'s result; its system error as the reason the file cannot be read.
    private static func unreadable<T>(_ body: () throws(Errno) -> T) throws(PhotoError) -> T {
        do {
            return try body()
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// A short name for a non-regular file type, for reasons shown to the user.
    private static func kind(of mode: mode_t) -> String {
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
}
