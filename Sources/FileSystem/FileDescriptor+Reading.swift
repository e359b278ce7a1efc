package import SystemPackage

/// Reading into byte arrays, on swift-system's `read`, which retries when a signal interrupts it.
extension FileDescriptor {
    /// Reads into `bytes` from its start until it is full or the file ends; returns the bytes read.
    /// Throws `Errno`.
    package func read(filling bytes: inout [UInt8]) throws -> Int {
        try bytes.withUnsafeMutableBytes { try read(filling: $0) }
    }

    /// Up to `count` bytes from the file position, read until there are `count` or the file ends
    /// (fewer at the end of the file). The array is not zeroed first: a photo's megabytes are
    /// written once, by the reads. Throws `Errno`.
    package func read(upTo count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = try read(filling: UnsafeMutableRawBufferPointer(buffer))
        }
    }

    private func read(filling buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Reads what is available now into `bytes` (one call, for non-blocking descriptors): the bytes
    /// read, 0 when nothing is available (`EAGAIN`) or at the end. Throws `Errno`.
    package func readAvailable(into bytes: inout [UInt8]) throws -> Int {
        do {
            return try bytes.withUnsafeMutableBytes { try read(into: $0) }
        } catch Errno.resourceTemporarilyUnavailable {
            return 0
        }
    }

    /// Up to `count` bytes from `offset`, without moving the file position (fewer at the end of the
    /// file). Throws `Errno`.
    package func read(count: Int, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try bytes.withUnsafeMutableBytes { try read(fromAbsoluteOffset: offset, into: $0) }
        return Array(bytes.prefix(filled))
    }

    /// The whole content of the file at `path`, opened read-only with `options` and `O_CLOEXEC`; a
    /// file larger than `limit` bytes throws `Errno.fileTooLarge` unread. Throws `Errno`.
    package static func contents(of path: FilePath, options: OpenOptions = [], limit: Int = 64 << 20) throws -> [UInt8] {
        let file = try open(path, .readOnly, options: options.union(.closeOnExec))
        return try file.closeAfter {
            let size = Int(try file.stat().size)
            guard size <= limit else { throw Errno.fileTooLarge }
            return try file.read(upTo: size)
        }
    }
}
