import Foundation

/// The exclusive right to change a library: an `flock` on `<library>/.lock`, holding the holder's
/// process id, so that two `ingest run` or `ingest watch` processes never work on one library.
///
/// The kernel releases the lock when the process ends, however it ends; `release()` lets it go
/// earlier. The file itself stays, so that a waiting process always locks the same file.
public final class LibraryLock: @unchecked Sendable {
    /// The lock file.
    public let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { release() }

    /// The lock file of `library`.
    public static func path(library: String) -> String {
        (library as NSString).appendingPathComponent(".lock")
    }

    /// Takes the lock of `library` (creating the folder and the lock file when missing). Throws
    /// `LibraryLockError` naming the holder when another process has it, unless `wait` is true; then
    /// it blocks until the holder is done, calling `waiting` once with the holder's id first.
    public static func acquire(library: String, wait: Bool, waiting: (Int32?) -> Void = { _ in }) throws -> LibraryLock {
        let path = path(library: library)
        try FileOperations.makeDirectories(library)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileOperationError(operation: "open the lock file", path: path, code: errno) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK else {
                close(descriptor)
                throw FileOperationError(operation: "lock", path: path, code: code)
            }
            let holder = Self.holder(descriptor)
            guard wait else {
                close(descriptor)
                throw LibraryLockError(path: path, holder: holder)
            }
            waiting(holder)
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let code = errno
                    close(descriptor)
                    throw FileOperationError(operation: "lock", path: path, code: code)
                }
            }
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return LibraryLock(path: path, descriptor: descriptor)
    }

    /// Lets the lock go; a second call does nothing.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// The process id the holder wrote into the lock file, when it can be read.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Another process holds the library's lock: the lock file and, when known, its holder's process id.
public struct LibraryLockError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var holder: Int32?

    public var description: String {
        let who = holder.map { "process \($0)" } ?? "another process"
        return "the library is in use by \(who) (lock file \(path)): another ingest run or watch is working on it; "
            + "try again when it has finished, or pass --wait"
    }
}
