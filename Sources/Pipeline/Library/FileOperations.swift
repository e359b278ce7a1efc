import FileSystem
import Glibc
internal import SystemPackage

/// The durable file moves the commit protocol is built from. Nothing here overwrites an existing file.
enum FileOperations {
    /// Creates `path` and its parents.
    static func makeDirectories(_ path: FilePath) throws {
        if isDirectory(path) { return }
        let parent = path.removingLastComponent()
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        do {
            try path.makeDirectory()
        } catch {
            // Made meanwhile by someone else is as good as made here.
            if error == .fileExists && isDirectory(path) { return }
            throw FileOperationError(operation: "create the folder", path: path, error)
        }
    }

    /// True when a folder (not a link to one) is at `path`.
    static func isDirectory(_ path: FilePath) -> Bool {
        (try? path.stat(followTargetSymlink: false).type) == .directory
    }

    /// `desired`, or `name (2).ext`, `name (3).ext`… — the first that is neither in `taken` nor
    /// `inUse` (by default: something is at that path).
    static func unusedPath(_ desired: FilePath, taken: inout Set<FilePath>,
                           inUse: (FilePath) -> Bool = FileOperations.exists) -> FilePath {
        let folder = desired.removingLastComponent()
        let stem = desired.stem ?? ""
        let ext = desired.extension ?? ""
        var candidate = desired
        var counter = 2
        while taken.contains(candidate) || inUse(candidate) {
            let name = ext.isEmpty ? "\(stem) (\(counter))" : "\(stem) (\(counter)).\(ext)"
            candidate = folder.appending(name)
            counter += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// True when something (also a dangling symbolic link) is at `path`.
    static func exists(_ path: FilePath) -> Bool {
        (try? path.stat(followTargetSymlink: false)) != nil
    }

    /// Makes `destination` a second name of `source` (a hard link: no data copied), or a durable copy
    /// where links are impossible (another file system). The source is left in place. The file is
    /// flushed either way: whoever wrote it into the inbox may not have, and once its inbox name is
    /// removed the library's name is the only one.
    static func link(_ source: FilePath, to destination: FilePath) throws {
        do {
            try source.link(to: destination)
        } catch where [.improperLink, .notPermitted, .notSupported, .tooManyLinks].contains(error) {
            return try copy(source, to: destination)
        } catch {
            throw FileOperationError(operation: "link \(source) to", path: destination, error)
        }
        try DurableFile.sync(destination)
    }

    /// Copies `source` to `destination` durably (`DurableFile`), so `destination` is either absent
    /// or complete.
    static func copy(_ source: FilePath, to destination: FilePath) throws {
        let input = try FileOperationError.attempt("open", source) {
            try FileDescriptor.open(source, .readOnly, options: [.noFollow, .closeOnExec])
        }
        try FileOperationError.attempt("read", source) {
            try input.closeAfter {
                try DurableFile.write(destination) { output in try copyContents(of: input, source, to: output, destination) }
            }
        }
    }

    /// Copies the bytes and modification time of `input` (named `source`) to `output` (to become
    /// `destination`) and flushes them.
    private static func copyContents(of input: FileDescriptor, _ source: FilePath, to output: FileDescriptor,
                                     _ destination: FilePath) throws(FileOperationError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try FileOperationError.attempt("read", source) { try input.read(filling: &buffer) }
            try FileOperationError.attempt("write", destination) { try output.writeAll(buffer.prefix(count)) }
            if count < buffer.count { break }
        }
        // The copy keeps the original's time, which the change check and verify compare: a copy
        // without it would fail that check on every retry.
        let info = try FileOperationError.attempt("read the times of", source) { try input.stat() }
        try FileOperationError.attempt("set the times of", destination) {
            try output.setTimes(accessed: info.st_atim, modified: info.st_mtim)
        }
    }

    /// Moves `source` to `destination` (which must not exist): a rename, or copy-then-remove across
    /// file systems. A symbolic link or special file is moved as itself, never followed.
    static func move(_ source: FilePath, to destination: FilePath) throws {
        guard !exists(destination) else {
            throw FileOperationError(operation: "move \(source) to", path: destination, code: EEXIST)
        }
        do {
            return try source.rename(to: destination)
        } catch {
            guard error == .improperLink else {
                throw FileOperationError(operation: "move \(source) to", path: destination, error)
            }
        }
        guard (try? source.stat(followTargetSymlink: false).type) == .regular else {
            throw FileOperationError(operation: "move (across file systems, not a regular file) \(source) to",
                                     path: destination, Errno.improperLink)
        }
        try copy(source, to: destination)
        try remove(source)
    }

    /// Writes `bytes` to a file at `path` durably: a temporary name, flushed, then linked into place,
    /// so `path` is either absent or complete. Throws `EEXIST` when `path` exists, unless `replacing`:
    /// then the file is renamed over it (a reader sees the old file or the new one).
    static func write(_ bytes: [UInt8], to path: FilePath, replacing: Bool = false) throws {
        try DurableFile.write(path, replacing: replacing) { try $0.writeAll(bytes) }
    }

    /// Puts `bytes` at `path` atomically and durably, replacing what is there: a crash leaves the old
    /// file or the new one, never a mix; at worst a temporary file (`DurableFile.temporaryPath(for:)`) stays behind.
    static func replace(_ path: FilePath, with bytes: [UInt8]) throws {
        try write(bytes, to: path, replacing: true)
        try DurableFile.syncFolder(path.removingLastComponent())
    }

    /// Removes the temporary files (`DurableFile.temporaryPath(for:)`) a killed process left in
    /// `folders`; with `name`, only those of a file of that name. The pipeline never places a
    /// hidden name of its own (hidden inbox files are not ingested), so such a file is always one of those.
    static func removeTemporaries(inFolders folders: Set<FilePath>, of name: String? = nil) throws {
        let marker = name.map { "." + $0 + DurableFile.temporaryMarker }
        for folder in folders {
            for entry in (try? Directory.entries(of: folder)) ?? [] where entry.isHidden
                && (marker.map(entry.name.hasPrefix) ?? entry.name.contains(DurableFile.temporaryMarker)) {
                try remove(folder.appending(entry.name))
            }
        }
    }

    /// Removes a file; a file already gone is fine.
    static func remove(_ path: FilePath) throws {
        do {
            try path.remove()
        } catch {
            if error != .noSuchFileOrDirectory { throw FileOperationError(operation: "remove", path: path, error) }
        }
    }

    /// Removes `path` and, when it is a folder, everything below it (a link itself, never its target).
    static func removeTree(_ path: FilePath) throws {
        guard isDirectory(path) else { return try remove(path) }
        let entries = try FileOperationError.attempt("list", path) { try Directory.entries(of: path) }
        for entry in entries { try removeTree(path.appending(entry.name)) }
        do {
            try path.removeDirectory()
        } catch {
            if error != .noSuchFileOrDirectory { throw FileOperationError(operation: "remove the folder", path: path, error) }
        }
    }

    /// Removes `folder` and its empty sub-folders, bottom-up, but never `stop` itself or anything
    /// that still holds a file.
    static func removeEmptyFolders(_ folder: FilePath, stoppingAt stop: FilePath) {
        var current = folder
        while current != stop, current.starts(with: stop) {
            guard (try? current.removeDirectory()) != nil else { return }
            current.removeLastComponent()
        }
    }
}
