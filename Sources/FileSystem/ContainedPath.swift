package import SystemPackage

/// A path below a trusted folder, reached without following a symbolic link on the way.
///
/// `O_NOFOLLOW` guards only a path's last component: were a set folder swapped for a link to `/etc`
/// after the inbox was listed, `inbox/set/passwd` would lead there. Here every folder from the root
/// down is opened in turn with `O_NOFOLLOW | O_DIRECTORY` (a link or a file on the way fails with
/// `ELOOP` or `ENOTDIR`), and the last folder's descriptor is held while `body` runs with the path
/// `/proc/self/fd/N/name`: that path names the file in the very folder that was checked, whatever
/// happens to the names above it meanwhile. (Linux's `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`
/// does the same walk in the kernel, but only behind `syscall`, which Swift cannot call.)
package enum ContainedPath {
    /// Runs `body` with a path that reaches `absolute` through real folders below `root` only. A path
    /// that is not below `root` is passed on as it is, and so is one whose folder is gone: nothing is
    /// there to follow, and every caller treats a missing file as missing (recovery, replaying a
    /// commit whose set folder was already emptied and removed, relies on it). Throws `Errno` when
    /// the walk fails otherwise: `ELOOP` or `ENOTDIR` for a link or a file where a folder should be.
    package static func withPath<R>(_ absolute: FilePath, below root: FilePath, _ body: (FilePath) throws -> R) throws -> R {
        var relative = absolute
        guard absolute != root, relative.removePrefix(root) else { return try body(absolute) }
        var components = Array(relative.components)
        guard let name = components.popLast(), !components.contains(where: { $0.kind != .regular }), name.kind == .regular else {
            throw Errno.invalidArgument
        }
        var folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(root, .readOnly, options: [.pathOnly, .directory, .closeOnExec])
        } catch Errno.noSuchFileOrDirectory {
            return try body(absolute)
        }
        for component in components {
            let next: FileDescriptor
            do {
                next = try folder.open(component, options: [.pathOnly, .directory, .noFollow])
            } catch {
                try? folder.close()
                if error == .noSuchFileOrDirectory { return try body(absolute) }
                throw error
            }
            try? folder.close()
            folder = next
        }
        let held = folder
        return try held.closeAfter { try body(FilePath("/proc/self/fd/\(held.rawValue)").appending(name)) }
    }
}
