package import Glibc
package import SystemPackage

/// The descriptor calls the package needs that swift-system does not offer, each retried when a
/// signal interrupts it and failing with `Errno`, as swift-system's own are.
extension FileDescriptor {
    /// Flushes the file's data and metadata (or a folder's entries) to the disk.
    package func sync() throws(Errno) {
        try systemCall { fsync(rawValue) }
    }

    /// Sets the file's access and modification times.
    package func setTimes(accessed: timespec, modified: timespec) throws(Errno) {
        var times = [accessed, modified]
        try systemCall { futimens(rawValue, &times) }
    }

    /// Takes an `flock` lock (`LOCK_EX`, with `LOCK_NB` not to wait), waiting through signals.
    package func lock(_ operation: Int32) throws(Errno) {
        try systemCall { flock(rawValue, operation) }
    }

    /// Gives the open file a second name, `destination` (a hard link; nothing is copied), through
    /// `/proc/self/fd`: the file this descriptor holds, whatever has become of its path since.
    package func link(to destination: FilePath) throws(Errno) {
        try destination.systemCall { linkat(AT_FDCWD, "/proc/self/fd/\(rawValue)", AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }
    }

    /// Waits until the descriptor (a pipe, a socket) has something to read or its other end is
    /// closed, for at most `milliseconds`: whether it has. A signal that interrupts the wait ends it
    /// early (false), the caller looks at its clock and waits again.
    package func waitUntilReadable(milliseconds: Int32) throws(Errno) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&entry, 1, milliseconds)
        if ready == -1 {
            if errno == EINTR { return false }
            throw Errno(rawValue: errno)
        }
        return ready > 0
    }

    /// Opens `name`, an entry of the folder this descriptor holds (`openat`), with `options` and
    /// `O_CLOEXEC`; `name` is looked up in that very folder, whatever happens to its path.
    package func open(_ name: FilePath.Component, options: OpenOptions) throws(Errno) -> FileDescriptor {
        let flags = AccessMode.readOnly.rawValue | options.rawValue | OpenOptions.closeOnExec.rawValue
        return FileDescriptor(rawValue: try FilePath(root: nil, [name]).systemCall { openat(rawValue, $0, flags) })
    }
}

extension FileDescriptor.OpenOptions {
    /// Linux's `O_PATH`: a descriptor that only names a folder or file, needing no read permission.
    /// Swift's Glibc module does not import it (it is behind `_GNU_SOURCE`), nor does swift-system
    /// offer it; the same value on x86-64 and ARM64.
    package static var pathOnly: Self { Self(rawValue: 0o10_000_000) }
}

extension FilePermissions {
    /// `rw-r--r--`, less the umask: what every file the package creates gets.
    package static var newFile: Self { [.ownerReadWrite, .groupRead, .otherRead] }
}
