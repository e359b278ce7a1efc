import FileSystem
import Foundation
import Synchronization
package import SystemPackage

/// The exclusive right to change a library: an `flock` on `<library>/.lock`, holding the holder's
/// process id, so that two `ingest run` or `ingest watch` processes never work on one library.
///
/// The kernel releases the lock when the process ends, however it ends; `release()` lets it go
/// earlier. The file itself stays, so that a waiting process always locks the same file.
package final class LibraryLock: Sendable {
    /// The lock file.
    package let path: FilePath
    /// The open lock file while the lock is held; nil once released.
    private let descriptor: Mutex<FileDescriptor?>

    private init(path: FilePath, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    deinit { release() }

    /// The lock file of `library`.
    package static func path(library: FilePath) -> FilePath {
        library.appending(".lock")
    }

    /// Takes the lock of `library` (creating the folder and the lock file when missing). Throws
    /// `LibraryLockError` naming the holder when another process has it, unless `wait` is true; then
    /// it blocks until the holder is done, calling `waiting` once with the holder's id first.
    package static func acquire(library: FilePath, wait: Bool, waiting: (Int32?) -> Void = { _ in }) throws -> LibraryLock {
        let path = path(library: library)
        try FileOperations.makeDirectories(library)
        let file = try FileOperationError.attempt("open the lock file", path) {
            try FileDescriptor.open(path, .readWrite, options: [.create, .noFollow, .closeOnExec], permissions: .newFile)
        }
        do {
            try take(file, path: path, wait: wait, waiting: waiting)
        } catch {
            try? file.close()
            throw error
        }
        try? file.resize(to: 0)
        _ = try? file.writeAll(toAbsoluteOffset: 0, Array("\(getpid())\n".utf8))
        return LibraryLock(path: path, descriptor: file)
    }

    /// Locks `file`, waiting for the holder when `wait` is true.
    private static func take(_ file: FileDescriptor, path: FilePath, wait: Bool, waiting: (Int32?) -> Void) throws {
        do {
            try file.lock(LOCK_EX | LOCK_NB)
        } catch where error == .wouldBlock {
            let holder = Self.holder(file)
            guard wait else { throw LibraryLockError(path: path, holder: holder) }
            waiting(holder)
            try FileOperationError.attempt("lock", path) { try file.lock(LOCK_EX) }
        } catch {
            throw FileOperationError(operation: "lock", path: path, error)
        }
    }

    /// The process id of the process holding the lock of `library` now; nil when none does (or the
    /// lock file cannot be opened). Takes the lock for an instant when it is free.
    package static func holder(library: FilePath) -> Int32? {
        guard let file = try? FileDescriptor.open(path(library: library), .readWrite, options: [.noFollow, .closeOnExec])
        else { return nil }
        defer { try? file.close() }
        do {
            try file.lock(LOCK_EX | LOCK_NB)
            return nil
        } catch {
            return holder(file)
        }
    }

    /// Lets the lock go; a second call does nothing. Thread-safe.
    package func release() {
        descriptor.withLock { file in
            try? file?.close()
            file = nil
        }
    }

    /// The process id the holder wrote into the lock file, when it can be read.
    private static func holder(_ file: FileDescriptor) -> Int32? {
        guard let bytes = try? file.read(count: 32, at: 0), !bytes.isEmpty else { return nil }
        return Int32(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
