package import FileSystem
import Foundation
package import SystemPackage

/// A file of the library, open for reading, reached by its catalogued path (relative to the library)
/// through real folders only: no symbolic link is followed on the way or at the end, and only a
/// regular file opens. What `ingest serve` sends and `export --html` copies; the descriptor closes
/// when the value goes.
package final class LibraryFile: Sendable {
    private let descriptor: FileDescriptor
    /// The path as given, for messages.
    package let path: String
    /// Bytes.
    package let size: Int64
    /// The modification time, nanoseconds since 1970.
    package let modified: Int64

    private init(descriptor: FileDescriptor, path: String, info: Stat) {
        self.descriptor = descriptor
        self.path = path
        size = info.size
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    deinit { try? descriptor.close() }

    /// Opens `relative` below `library`. Throws `FileOperationError`: `EINVAL` for a path that is
    /// absolute, empty or has `.`, `..` or empty parts; `ELOOP` or `ENOTDIR` for a link on the way;
    /// `ENOENT` for a missing file; `EISDIR` for anything but a regular file.
    package static func open(_ relative: String, library: FilePath) throws(FileOperationError) -> LibraryFile {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw FileOperationError(operation: "open", path: FilePath(relative), code: EINVAL)
        }
        return try FileOperationError.attempt("open", FilePath(relative)) {
            let file = try ContainedPath.withPath(library.appending(relative), below: library) { path in
                try FileDescriptor.open(path, .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec])
            }
            let info: Stat
            do {
                info = try file.stat()
                guard info.type == .regular else { throw Errno.isDirectory }
            } catch {
                try? file.close()
                throw error
            }
            return LibraryFile(descriptor: file, path: relative, info: info)
        }
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    package func read(at offset: Int64, count: Int) throws(FileOperationError) -> [UInt8] {
        try FileOperationError.attempt("read", FilePath(path)) { try descriptor.read(count: count, at: offset) }
    }

    /// The whole file, as long as it is at most `limit` bytes (else `EFBIG`).
    package func readAll(limit: Int64 = 64 << 20) throws(FileOperationError) -> [UInt8] {
        guard size <= limit else { throw FileOperationError(operation: "read", path: FilePath(path), code: EFBIG) }
        return try read(at: 0, count: Int(size))
    }

    /// Puts the file at `destination` (replacing what is there): a hard link where the file systems
    /// allow one, else a copy. Not flushed: for exports, which can be made again.
    package func copy(to destination: FilePath) throws(FileOperationError) {
        try? FileOperations.remove(destination)
        if (try? descriptor.link(to: destination)) != nil { return }
        let bytes = try readAll(limit: .max)
        try FileOperationError.attempt("write", destination) {
            let output = try FileDescriptor.open(destination, .writeOnly, options: [.create, .truncate, .noFollow, .closeOnExec],
                                                 permissions: .newFile)
            _ = try output.closeAfter { try output.writeAll(bytes) }
        }
    }
}
