import Foundation

/// A failed file-system call: which call, on which path, and the system's reason.
public struct FileOperationError: Error, CustomStringConvertible, Sendable, Equatable {
    public var operation: String
    public var path: String
    public var code: Int32

    public var description: String {
        let text = "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        return isOutOfSpace ? text + " (the disk or the file-size limit is full: free space, then run ingest again)" : text
    }

    /// The disk (or the file-size limit) is full: no later write of this run will fare better.
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }
}

/// The durable file moves the commit protocol is built from. Nothing here overwrites an existing file.
enum FileOperations {
    /// Creates `path` and its parents.
    static func makeDirectories(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileOperationError(operation: "create the folder", path: path, code: errnoOf(error) ?? EIO)
        }
    }

    /// `desired`, or `name (2).ext`, `name (3).ext`… — the first that neither exists nor is in `taken`.
    static func unusedPath(_ desired: String, taken: inout Set<String>) -> String {
        let folder = (desired as NSString).deletingLastPathComponent
        let file = (desired as NSString).lastPathComponent
        let ext = (file as NSString).pathExtension
        let stem = (file as NSString).deletingPathExtension
        var candidate = desired
        var counter = 2
        while taken.contains(candidate) || exists(candidate) {
            let name = ext.isEmpty ? "\(stem) (\(counter))" : "\(stem) (\(counter)).\(ext)"
            candidate = (folder as NSString).appendingPathComponent(name)
            counter += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// True when something (also a dangling symbolic link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Makes `destination` a second name of `source` (a hard link: no data copied), or a durable copy
    /// where links are impossible (another file system). The source is left in place. The file is
    /// flushed either way: whoever wrote it into the inbox may not have, and once its inbox name is
    /// removed the library's name is the only one.
    static func link(_ source: String, to destination: String) throws {
        if Glibc.link(source, destination) == 0 {
            let fd = open(destination, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw FileOperationError(operation: "open", path: destination, code: errno) }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw FileOperationError(operation: "flush", path: destination, code: errno) }
            return
        }
        let code = errno
        guard code == EXDEV || code == EPERM || code == ENOTSUP || code == EMLINK else {
            throw FileOperationError(operation: "link \(source) to", path: destination, code: code)
        }
        try copy(source, to: destination)
    }

    /// Copies `source` to `destination` durably: written to a temporary name, flushed, then linked
    /// into place so `destination` is either absent or complete.
    static func copy(_ source: String, to destination: String) throws {
        let temporary = temporaryPath(for: destination)
        defer { unlink(temporary) }
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw FileOperationError(operation: "open", path: source, code: errno) }
        defer { close(input) }
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw FileOperationError(operation: "create", path: temporary, code: errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let code = errno
                close(output)
                throw FileOperationError(operation: "read", path: source, code: code)
            }
            if count == 0 { break }
            if let code = writeAll(output, buffer, count) {
                close(output)
                throw FileOperationError(operation: "write", path: destination, code: code)
            }
        }
        var info = stat()
        if fstat(input, &info) == 0 {
            var times = [info.st_atim, info.st_mtim]
            futimens(output, &times)
        }
        if fsync(output) != 0 {
            let code = errno
            close(output)
            throw FileOperationError(operation: "flush", path: destination, code: code)
        }
        close(output)
        guard Glibc.link(temporary, destination) == 0 else {
            throw FileOperationError(operation: "place", path: destination, code: errno)
        }
    }

    /// Moves `source` to `destination` (which must not exist): a rename, or copy-then-remove across
    /// file systems. A symbolic link or special file is moved as itself, never followed.
    static func move(_ source: String, to destination: String) throws {
        guard !exists(destination) else {
            throw FileOperationError(operation: "move \(source) to", path: destination, code: EEXIST)
        }
        if rename(source, destination) == 0 { return }
        let code = errno
        guard code == EXDEV else { throw FileOperationError(operation: "move \(source) to", path: destination, code: code) }
        var info = stat()
        guard lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileOperationError(operation: "move (across file systems, not a regular file) \(source) to",
                                     path: destination, code: code)
        }
        try copy(source, to: destination)
        try remove(source)
    }

    /// Writes `bytes` to a file at `path` durably: a temporary name, flushed, then linked into place,
    /// so `path` is either absent or complete. Throws `EEXIST` when `path` exists, unless `replacing`:
    /// then the file is renamed over it (a reader sees the old file or the new one).
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool = false) throws {
        let temporary = temporaryPath(for: path)
        defer { unlink(temporary) }
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw FileOperationError(operation: "create", path: temporary, code: errno) }
        defer { close(output) }
        if let code = writeAll(output, bytes, bytes.count) {
            throw FileOperationError(operation: "write", path: path, code: code)
        }
        guard fsync(output) == 0 else { throw FileOperationError(operation: "flush", path: path, code: errno) }
        guard (replacing ? rename(temporary, path) : Glibc.link(temporary, path)) == 0 else {
            throw FileOperationError(operation: "place", path: path, code: errno)
        }
    }

    /// Where `copy` and `write` build a file before it gets its name: beside it (the same file system),
    /// hidden, marked `.partial-`. The pipeline never places a hidden name of its own (hidden inbox
    /// files are not ingested), so such a file is always a temporary one a killed process left.
    static func temporaryPath(for destination: String) -> String {
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        return (folder as NSString).appendingPathComponent(".\(name)\(temporaryMarker)\(UUID().uuidString.prefix(8))")
    }

    private static let temporaryMarker = ".partial-"

    /// Removes the temporary files (`temporaryPath(for:)`) a killed process left in `folders`.
    static func removeTemporaries(inFolders folders: Set<String>) throws {
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.hasPrefix(".") && name.contains(temporaryMarker) {
                try remove((folder as NSString).appendingPathComponent(name))
            }
        }
    }

    /// Puts `bytes` at `path` atomically and durably, replacing what is there: a crash leaves the old
    /// file or the new one, never a mix; at worst a temporary file (`temporaryPath(for:)`) stays behind.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        try write(bytes, to: path, replacing: true)
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Moves `source` out of the way to `desired` (or `name (2).ext`… when taken) with a `.reason`
    /// note beside it, as the quarantine keeps files; returns where it went. Never overwrites.
    static func setAside(_ source: String, to desired: String, label: String, reason: String) throws -> String {
        var taken = Set<String>()
        let destination = unusedPath(desired, taken: &taken)
        try setAside(source, at: destination, note: reasonNote(label: label, reason: reason))
        return destination
    }

    /// What a `.reason` note says about the file `label`.
    static func reasonNote(label: String, reason: String) -> String {
        "file: \(label)\nreason: \(reason)\nat: \(Date())\n"
    }

    /// Puts `source` aside at `destination` with `note` in `<destination>.reason`. The note is written
    /// first (replacing one an interrupted attempt left), then the file is moved: a crash leaves the
    /// file where it was, or the file and its note in place. Calling it again with the same arguments
    /// finishes what a crash interrupted, so a commit journal can replay it.
    static func setAside(_ source: String, at destination: String, note: String) throws {
        let notePath = destination + ".reason"
        switch (exists(source), exists(destination)) {
        case (true, false):
            try makeDirectories((destination as NSString).deletingLastPathComponent)
            try write(Array(note.utf8), to: notePath, replacing: true)
            do {
                try move(source, to: destination)
            } catch {
                try? remove(notePath)
                throw error
            }
        case (true, true):
            // A move across file systems had copied the file and not yet removed the source.
            guard let moving = FileIdentity.of(source), let moved = FileIdentity.of(destination),
                  moving.hasSameContent(as: moved) else {
                throw FileOperationError(operation: "set aside \(source) at", path: destination, code: EEXIST)
            }
            try remove(source)
        case (false, true):
            if !exists(notePath) { try write(Array(note.utf8), to: notePath, replacing: true) }
        case (false, false):
            // The file went away before it was moved, and not by our hand: the note describes nothing.
            try remove(notePath)
        }
    }

    /// Removes a file; a file already gone is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileOperationError(operation: "remove", path: path, code: errno)
        }
    }

    /// Flushes a folder's entries (new names, removed names) to disk.
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes `folder` and its empty sub-folders, bottom-up, but never `stop` itself or anything
    /// that still holds a file.
    static func removeEmptyFolders(_ folder: String, stoppingAt stop: String) {
        let stop = stop.hasSuffix("/") ? String(stop.dropLast()) : stop
        var current = folder
        while current.hasPrefix(stop + "/") {
            guard rmdir(current) == 0 else { return }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ count: Int) -> Int32? {
        var written = 0
        while written < count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += n
        }
        return nil
    }

    private static func errnoOf(_ error: Error) -> Int32? {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : nil
    }
}
