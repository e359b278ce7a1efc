import Glibc
package import SystemPackage

/// The package's one way of listing folders.
package enum Directory {
    /// The entries of `folder`, except `.` and `..`, sorted by name. Throws `Errno`.
    package static func entries(of folder: FilePath) throws(Errno) -> [DirectoryEntry] {
        guard let stream = folder.withPlatformString(opendir) else { throw Errno(rawValue: errno) }
        defer { closedir(stream) }
        var result: [DirectoryEntry] = []
        // readdir returns nil at the end and on failure alike: errno tells them apart.
        errno = 0
        while let entry = readdir(stream) {
            defer { errno = 0 }
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw != [46], raw != [46, 46] else { continue }
            // The kind readdir gives costs nothing; file systems that do not give it need an lstat.
            var isDirectory = Int32(entry.pointee.d_type) == DT_DIR
            if Int32(entry.pointee.d_type) == DT_UNKNOWN {
                var info = stat()
                let found = (raw + [0]).withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { fstatat(dirfd(stream), $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
                }
                isDirectory = found == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            let name = String(validating: raw, as: UTF8.self)
            result.append(DirectoryEntry(name: name ?? escapingInvalidUTF8(raw), isUTF8: name != nil, isDirectory: isDirectory))
        }
        if errno != 0 { throw Errno(rawValue: errno) }
        return result.sorted { $0.name < $1.name }
    }

    /// Walks the tree below `root` depth first, in name order, never following a symbolic link.
    /// `visit` sees every entry with its path relative to `root` and its depth (0 directly in
    /// `root`); returning true for a folder descends into it. A folder that vanished before it
    /// was listed is passed over; any other folder that cannot be listed throws, with its path.
    package static func walk(_ root: FilePath,
                            _ visit: (_ entry: DirectoryEntry, _ relativePath: FilePath, _ depth: Int) throws -> Bool) throws {
        func walk(_ relative: FilePath, depth: Int) throws {
            let folder = root.pushing(relative)
            let entries: [DirectoryEntry]
            do {
                entries = try Directory.entries(of: folder)
            } catch where depth > 0 && (error == .noSuchFileOrDirectory || error == .notDirectory) {
                return
            } catch {
                throw FileOperationError(operation: "list", path: folder, error)
            }
            for entry in entries {
                let path = relative.appending(entry.name)
                if try visit(entry, path, depth), entry.isDirectory { try walk(path, depth: depth + 1) }
            }
        }
        try walk(FilePath(), depth: 0)
    }
}

/// `bytes` as text, each byte that is not part of valid UTF-8 written as `\xFF`: a name a person can
/// read and find, though it cannot be used to open the file.
func escapingInvalidUTF8(_ bytes: [UInt8]) -> String {
    var text = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded):
            text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
            position += encoded.count
        case .error(let length):
            text += bytes[position ..< position + length].map { "\\x" + String($0, radix: 16, uppercase: true) }.joined()
            position += length
        case .emptyInput:
            return text
        }
    }
}
