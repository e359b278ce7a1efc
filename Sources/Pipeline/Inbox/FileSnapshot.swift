import Foundation
import Imaging
internal import SystemPackage
import FileSystem

/// A photo file's bytes, read once, with the identity it had when read.
struct FileSnapshot {
    var bytes: [UInt8]
    var size: Int64
    var modified: timespec
    var device: UInt64
    var inode: UInt64

    /// Reads a whole regular file without following a symbolic link and without blocking on a FIFO.
    static func read(_ path: FilePath, maxBytes: Int64) throws(PhotoError) -> FileSnapshot {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec])
        } catch {
            switch error as? Errno {
            case .tooManySymbolicLinkLevels: throw .symbolicLink
            case .noSuchFileOrDirectory: throw .goneBeforeReading
            default: throw .unreadable("\(error)")
            }
        }
        defer { try? file.close() }
        return try read(file, maxBytes: maxBytes)
    }

    private static func read(_ file: FileDescriptor, maxBytes: Int64) throws(PhotoError) -> FileSnapshot {
        let info = try unreadable { try file.stat() }
        guard info.type == .regular else { throw .notRegularFile(kind: kind(of: info.type)) }
        let size = info.size
        guard size > 0 else { throw .empty }
        guard size <= maxBytes else { throw .tooLarge(bytes: size, limit: maxBytes) }
        let bytes = try unreadable { try file.read(upTo: Int(size)) }
        let after = try unreadable { try file.stat() }
        guard bytes.count == Int(size), after.size == info.size,
              after.st_mtim.tv_sec == info.st_mtim.tv_sec, after.st_mtim.tv_nsec == info.st_mtim.tv_nsec else {
            throw .changedWhileReading
        }
        return FileSnapshot(bytes: bytes, size: size, modified: info.st_mtim,
                            device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue))
    }

    /// The file's identity when it was read, to notice a later change before it is committed.
    var identity: FileIdentity {
        FileIdentity(size: size, modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
                     device: device, inode: inode)
    }

    /// Lower-case hex SHA-256 of the bytes.
    var sha256: String { Digest.sha256(bytes) }

    /// `body`'s result; its system error as the reason the file cannot be read.
    private static func unreadable<T>(_ body: () throws -> T) throws(PhotoError) -> T {
        do {
            return try body()
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// A short name for a non-regular file type, for reasons shown to the user.
    private static func kind(of type: FileType) -> String {
        switch type {
        case .directory: "directory"
        case .symbolicLink: "symbolic link"
        case .fifo: "FIFO"
        case .socket: "socket"
        case .characterSpecial: "character device"
        case .blockSpecial: "block device"
        default: "special file"
        }
    }
}
