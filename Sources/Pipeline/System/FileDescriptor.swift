import Glibc

/// An open file, folder or kernel object. Every open, read, write, flush and close of the package
/// goes through this type: each call is retried when a signal interrupts it, and fails with `Errno`.
struct FileDescriptor {
    let rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is always added); `permissions` apply when it creates a file.
    static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// Opens `path`, runs `body` with it, and closes it whether `body` returns or throws.
    static func withOpened<R, E: Error>(
        _ path: String, _ flags: Int32, permissions: mode_t = 0o644,
        onOpenError: (Errno) -> E, _ body: (FileDescriptor) throws(E) -> R
    ) throws(E) -> R {
        let descriptor: FileDescriptor
        do {
            descriptor = try open(path, flags, permissions: permissions)
        } catch {
            throw onOpenError(error)
        }
        return try descriptor.closeAfter { () throws(E) in try body(descriptor) }
    }

    /// Runs `body`, then closes the descriptor, whether `body` returns or throws.
    func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body()
    }

    /// Closes the descriptor. A failed close cannot be retried on Linux (the descriptor is gone
    /// either way), and every write that matters was flushed with `sync()` before.
    func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads into `bytes` from its start until it is full or the file ends; returns the bytes read.
    func read(into bytes: inout [UInt8]) throws(Errno) -> Int {
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in
                var filled = 0
                while filled < buffer.count {
                    let count = try retryOnInterrupt { Glibc.read(rawValue, buffer.baseAddress! + filled, buffer.count - filled) }
                    if count == 0 { break }
                    filled += count
                }
                return filled
            }
        }.get()
    }

    /// Reads what is available now into `bytes` (one call, for non-blocking descriptors): the bytes
    /// read, 0 when nothing is available (`EAGAIN`) or at the end.
    func readAvailable(into bytes: inout [UInt8]) throws(Errno) -> Int {
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try retryOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) } }
        }
        if case .failure(let error) = result, error.code == EAGAIN { return 0 }
        return try result.get()
    }

    /// Writes the first `count` of `bytes` (all of them by default), however many calls that takes.
    func write(all bytes: [UInt8], count: Int? = nil) throws(Errno) {
        let count = count ?? bytes.count
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try write(all: UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
        }.get()
    }

    /// Writes all of `buffer`, however many calls that takes.
    func write(all buffer: UnsafeRawBufferPointer) throws(Errno) {
        var written = 0
        while written < buffer.count {
            written += try retryOnInterrupt { Glibc.write(rawValue, buffer.baseAddress! + written, buffer.count - written) }
        }
    }

    /// Writes `bytes` at `offset` without moving the file position.
    func write(_ bytes: [UInt8], at offset: Int) throws(Errno) {
        _ = try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try retryOnInterrupt { pwrite(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) } }
        }.get()
    }

    /// Reads up to `count` bytes at `offset` without moving the file position.
    func read(count: Int, at offset: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try retryOnInterrupt { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) } }
        }.get()
        return Array(bytes.prefix(read))
    }

    /// Flushes the file's data and metadata (or a folder's entries) to the disk.
    func sync() throws(Errno) {
        try retryOnInterrupt { fsync(rawValue) }
    }

    /// The file's status: type, size, times, device and inode.
    func status() throws(Errno) -> stat {
        var info = stat()
        try retryOnInterrupt { fstat(rawValue, &info) }
        return info
    }

    /// Sets the file's access and modification times.
    func setTimes(accessed: timespec, modified: timespec) throws(Errno) {
        var times = [accessed, modified]
        try retryOnInterrupt { futimens(rawValue, &times) }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(Errno) {
        try retryOnInterrupt { ftruncate(rawValue, off_t(length)) }
    }

    /// Takes an `flock` lock (`LOCK_EX`, with `LOCK_NB` not to wait), waiting through signals.
    func lock(_ operation: Int32) throws(Errno) {
        try retryOnInterrupt { flock(rawValue, operation) }
    }
}

extension FileDescriptor {
    /// The whole content of the file at `path`, opened with `O_RDONLY | flags`; a file larger than
    /// `limit` bytes throws `EFBIG` unread.
    static func contents(of path: String, flags: Int32 = 0, limit: Int = 64 << 20) throws(Errno) -> [UInt8] {
        let file = try open(path, O_RDONLY | flags)
        return try file.closeAfter { () throws(Errno) in
            let size = Int(try file.status().st_size)
            guard size <= limit else { throw Errno(code: EFBIG) }
            var bytes = [UInt8](repeating: 0, count: size)
            let count = try file.read(into: &bytes)
            return Array(bytes.prefix(count))
        }
    }
}
