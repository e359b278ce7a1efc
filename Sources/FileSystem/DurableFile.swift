package import SystemPackage

/// Files written so that a crash or a power cut leaves no file or the whole file at a name, never
/// part of one: the bytes go to a temporary name beside it, are flushed, and only then get the
/// name. The one way the package writes a file that must last (library files, journals, notes,
/// exports); a backup, which SQLite writes, is flushed and named with `sync(_:)` and `syncFolder(_:)`.
package enum DurableFile {
    /// What marks a temporary name; no other name the package writes has it.
    package static let temporaryMarker = ".partial-"

    /// Where a file is built before it gets the name `destination`: beside it (the same file system,
    /// so a link or rename can place it), hidden, marked `temporaryMarker` with 8 random hex digits.
    /// A file left under such a name is one a killed process did not finish.
    package static func temporaryPath(for destination: FilePath) -> FilePath {
        let folder = destination.removingLastComponent()
        let random = String(UInt32.random(in: .min ... .max), radix: 16, uppercase: true)
        let suffix = String(repeating: "0", count: 8 - random.count) + random
        let name = ".\(destination.lastComponent?.string ?? "")\(temporaryMarker)\(suffix)"
        return folder.appending(name)
    }

    /// Writes a file at `destination`: `body` writes the open temporary file (`temporaryPath(for:)`),
    /// which is then flushed and given its name — linked there, so that it fails with `EEXIST` when
    /// something is there, or with `replacing` renamed over what is there (a reader sees the old
    /// file or the new one). The temporary name is removed whatever happens. The folder's new entry
    /// is not flushed: see `syncFolder(_:)`. Returns `body`'s result.
    ///
    /// Throws `FileOperationError` naming the temporary file when it cannot be created, and
    /// `destination` when it cannot be written (an `Errno` from `body`), flushed or placed; any
    /// other error of `body` as it is.
    @discardableResult
    package static func write<R>(_ destination: FilePath, replacing: Bool = false,
                                _ body: (FileDescriptor) throws -> R) throws -> R {
        let temporary = temporaryPath(for: destination)
        defer { try? temporary.remove() }
        let file = try FileOperationError.attempt("create", temporary) {
            try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                    permissions: .newFile)
        }
        let result: R
        do {
            result = try file.closeAfter {
                let result = try body(file)
                try FileOperationError.attempt("flush", destination) { try file.sync() }
                return result
            }
        } catch let error as Errno {
            // From `body`, or from closing the file.
            throw FileOperationError(operation: "write", path: destination, error)
        }
        try FileOperationError.attempt("place", destination) {
            if replacing {
                try temporary.rename(to: destination)
            } else {
                try temporary.link(to: destination)
            }
        }
        return result
    }

    /// Flushes the file at `path` to the disk; a symbolic link fails (`ELOOP`), never its target.
    /// Throws `FileOperationError`.
    package static func sync(_ path: FilePath) throws(FileOperationError) {
        let file = try FileOperationError.attempt("open", path) {
            try FileDescriptor.open(path, .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec])
        }
        try FileOperationError.attempt("flush", path) { try file.closeAfter { try file.sync() } }
    }

    /// Flushes a folder's entries (new names, removed names) to the disk. Throws
    /// `FileOperationError` when it cannot: a name not on the disk may be gone after a power cut. A
    /// folder that does not exist has nothing to flush.
    package static func syncFolder(_ path: FilePath) throws(FileOperationError) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(path.isEmpty ? "." : path, .readOnly, options: [.directory, .closeOnExec])
        } catch Errno.noSuchFileOrDirectory {
            return
        } catch {
            throw FileOperationError(operation: "open the folder", path: path, error)
        }
        try FileOperationError.attempt("flush the folder", path) { try folder.closeAfter { try folder.sync() } }
    }
}
