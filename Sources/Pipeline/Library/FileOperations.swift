import Foundation

/// The durable file moves the commit protocol is built from. Nothing here overwrites an existing file.
enum FileOperations {
    /// Creates `path` and its parents.
    static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        do {
            try retryOnInterrupt { mkdir(path, 0o755) }
        } catch {
            // Made meanwhile by someone else is as good as made here.
            if error.code == EEXIST && isDirectory(path) { return }
            throw FileOperationError(operation: "create the folder", path: path, code: error.code)
        }
    }

    /// True when a folder (not a link to one) is at `path`.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `desired`, or `name (2).ext`, `name (3).ext`… — the first that is neither in `taken` nor
    /// `inUse` (by default: something is at that path).
    static func unusedPath(_ desired: String, taken: inout Set<String>,
                           inUse: (String) -> Bool = FileOperations.exists) -> String {
        let folder = (desired as NSString).deletingLastPathComponent
        let file = (desired as NSString).lastPathComponent
        let ext = (file as NSString).pathExtension
        let stem = (file as NSString).deletingPathExtension
        var candidate = desired
        var counter = 2
        while taken.contains(candidate) || inUse(candidate) {
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
        do {
            try retryOnInterrupt { Glibc.link(source, destination) }
        } catch where [EXDEV, EPERM, ENOTSUP, EMLINK].contains(error.code) {
            return try copy(source, to: destination)
        } catch {
            throw FileOperationError(operation: "link \(source) to", path: destination, code: error.code)
        }
        try flush(destination)
    }

    /// Flushes the file at `path` (not a link's target) to the disk.
    private static func flush(_ path: String) throws(FileOperationError) {
        let file = try attempt("open", path) { () throws(Errno) in
            try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        }
        try file.closeAfter { () throws(FileOperationError) in try attempt("flush", path) { () throws(Errno) in try file.sync() } }
    }

    /// Copies `source` to `destination` durably: written to a temporary name, flushed, then linked
    /// into place so `destination` is either absent or complete.
    static func copy(_ source: String, to destination: String) throws {
        let temporary = temporaryPath(for: destination)
        defer { unlink(temporary) }
        let input = try attempt("open", source) { () throws(Errno) in try FileDescriptor.open(source, O_RDONLY | O_NOFOLLOW) }
        try input.closeAfter {
            let output = try attempt("create", temporary) { () throws(Errno) in
                try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL)
            }
            try output.closeAfter { try copyContents(of: input, source, to: output, destination) }
        }
        try attempt("place", destination) { () throws(Errno) in try retryOnInterrupt { Glibc.link(temporary, destination) } }
    }

    /// Copies the bytes and modification time of `input` (named `source`) to `output` (to become
    /// `destination`) and flushes them.
    private static func copyContents(of input: FileDescriptor, _ source: String, to output: FileDescriptor,
                                     _ destination: String) throws(FileOperationError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do {
                count = try input.read(into: &buffer)
            } catch {
                throw FileOperationError(operation: "read", path: source, code: error.code)
            }
            try attempt("write", destination) { () throws(Errno) in try output.write(all: buffer, count: count) }
            if count < buffer.count { break }
        }
        // The copy keeps the original's time, which the change check and verify compare: a copy
        // without it would fail that check on every retry.
        let info = try attempt("read the times of", source) { () throws(Errno) in try input.status() }
        try attempt("set the times of", destination) { () throws(Errno) in
            try output.setTimes(accessed: info.st_atim, modified: info.st_mtim)
        }
        try attempt("flush", destination) { () throws(Errno) in try output.sync() }
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
        let output = try attempt("create", temporary) { () throws(Errno) in
            try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL)
        }
        try output.closeAfter {
            try attempt("write", path) { () throws(Errno) in try output.write(all: bytes) }
            try attempt("flush", path) { () throws(Errno) in try output.sync() }
        }
        try attempt("place", path) { () throws(Errno) in
            try retryOnInterrupt { replacing ? rename(temporary, path) : Glibc.link(temporary, path) }
        }
    }

    /// Puts `bytes` at `path` atomically and durably, replacing what is there: a crash leaves the old
    /// file or the new one, never a mix; at worst a temporary file (`temporaryPath(for:)`) stays behind.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        try write(bytes, to: path, replacing: true)
        try syncDirectory((path as NSString).deletingLastPathComponent)
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
            for entry in (try? Directory.entries(of: folder)) ?? [] where entry.isHidden && entry.name.contains(temporaryMarker) {
                try remove((folder as NSString).appendingPathComponent(entry.name))
            }
        }
    }

    /// Removes a file; a file already gone is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileOperationError(operation: "remove", path: path, code: errno)
        }
    }

    /// Removes `path` and, when it is a folder, everything below it (a link itself, never its target).
    static func removeTree(_ path: String) throws {
        guard isDirectory(path) else { return try remove(path) }
        let entries = try attempt("list", path) { () throws(Errno) in try Directory.entries(of: path) }
        for entry in entries { try removeTree((path as NSString).appendingPathComponent(entry.name)) }
        do {
            try retryOnInterrupt { rmdir(path) }
        } catch {
            if error.code != ENOENT { throw FileOperationError(operation: "remove the folder", path: path, code: error.code) }
        }
    }

    /// Flushes a folder's entries (new names, removed names) to disk. Throws when it cannot: a name
    /// not on the disk may be gone after a power cut, and the commit protocol counts on it. A folder
    /// that does not exist has nothing to flush.
    static func syncDirectory(_ path: String) throws(FileOperationError) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        } catch {
            if error.code == ENOENT { return }
            throw FileOperationError(operation: "open the folder", path: path, code: error.code)
        }
        try folder.closeAfter { () throws(FileOperationError) in
            try attempt("flush the folder", path) { () throws(Errno) in try folder.sync() }
        }
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

    @discardableResult
    /// `body`'s result; a system error it throws becomes a `FileOperationError` naming `operation` and `path`.
    static func attempt<T>(_ operation: String, _ path: String, _ body: () throws(Errno) -> T) throws(FileOperationError) -> T {
        do {
            return try body()
        } catch {
            throw FileOperationError(operation: operation, path: path, code: error.code)
        }
    }
}
