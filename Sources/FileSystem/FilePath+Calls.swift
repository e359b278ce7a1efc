import Glibc
package import SystemPackage

/// The path calls the package needs that swift-system does not offer, each retried when a signal
/// interrupts it and failing with `Errno`. None follows a symbolic link at the path's end, except
/// where it says so.
extension FilePath {
    /// Creates the folder (`mkdir`, its parent must exist), `rwxr-xr-x` less the umask.
    package func makeDirectory() throws(Errno) {
        try systemCall { mkdir($0, 0o755) }
    }

    /// Gives the file a second name, `destination`, which must not exist (a hard link: nothing is
    /// copied). Across file systems it fails with `Errno.improperLink`.
    package func link(to destination: FilePath) throws(Errno) {
        try systemCall(with: destination) { Glibc.link($0, $1) }
    }

    /// Renames the file or folder to `destination`, replacing a file there in one step.
    package func rename(to destination: FilePath) throws(Errno) {
        try systemCall(with: destination) { Glibc.rename($0, $1) }
    }

    /// Removes the name (`unlink`; a folder's is `removeDirectory()`).
    package func remove() throws(Errno) {
        try systemCall { unlink($0) }
    }

    /// Removes the folder, which must be empty (`rmdir`).
    package func removeDirectory() throws(Errno) {
        try systemCall { rmdir($0) }
    }

    /// Throws the reason this process may not create or remove names in the folder (`access`), or
    /// nothing when it may. Root may even where the folder's file system is read-only.
    package func checkWritable() throws(Errno) {
        try systemCall { access($0, W_OK) }
    }

    /// The bytes free for an unprivileged process on the file system the path is on (`statvfs`).
    package func availableBytes() throws(Errno) -> UInt64 {
        var info = statvfs()
        try systemCall { statvfs($0, &info) }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
