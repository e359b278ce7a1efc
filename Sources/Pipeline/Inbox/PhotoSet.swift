import Foundation

/// One inbox sub-folder and what it holds: candidate photos, and files the pipeline leaves alone.
public struct PhotoSet: Sendable {
    public var name: String
    public var folder: String
    /// Regular files, symbolic links and special files, to analyse or quarantine; sorted by path.
    public var files: [InboxFile]
    /// Hidden files and folders (`.DS_Store`): ignored and left where they are, without a word.
    public var ignored: [String]
    /// What cannot be ingested and is left where it is, with the reason the run summary gives: names
    /// that are not UTF-8, folders nested deeper than `maximumDepth`.
    public var skipped: [FileReport]
    /// The absolute path of the set's `capture.json` sidecar (see `CaptureContext`), when the set
    /// folder's root has one; it is not among `files`.
    public var contextFile: String?

    /// Sub-folders are followed to this depth; deeper ones are left in place and reported.
    public static let maximumDepth = 16

    /// The sets of an inbox: its non-hidden sub-folders, sorted by name. Files lying directly in the
    /// inbox belong to no set and are left alone. A folder whose name is not UTF-8 comes back as a set
    /// without files that reports itself skipped, so the run summary names it.
    public static func sets(inInbox inbox: String) throws -> [PhotoSet] {
        try entries(of: inbox)
            .filter { !$0.name.hasPrefix(".") && $0.isDirectory }
            .map { entry in
                let folder = (inbox as NSString).appendingPathComponent(entry.name)
                guard entry.isUTF8 else {
                    return PhotoSet(name: entry.name, folder: folder, files: [], ignored: [], skipped: [
                        FileReport(path: entry.name, reason: Self.notUTF8, keptAt: folder)])
                }
                return try PhotoSet(name: entry.name, folder: folder)
            }
            .sorted { $0.name < $1.name }
    }

    private init(name: String, folder: String, files: [InboxFile], ignored: [String], skipped: [FileReport]) {
        self.name = name
        self.folder = folder
        self.files = files
        self.ignored = ignored
        self.skipped = skipped
    }

    private static let notUTF8 = "the name is not valid UTF-8, so it cannot be catalogued; left in place (rename it to ingest it)"

    /// Lists a set folder recursively, never following symbolic links.
    public init(name: String, folder: String) throws {
        self.name = name
        self.folder = folder
        files = []
        ignored = []
        skipped = []
        try collect(folder: folder, prefix: "", depth: 0)
        files.sort { $0.relativePath < $1.relativePath }
    }

    private mutating func collect(folder: String, prefix: String, depth: Int) throws {
        for entry in try Self.entries(of: folder) {
            let relative = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
            let path = (folder as NSString).appendingPathComponent(entry.name)
            if entry.name.hasPrefix(".") {
                ignored.append(relative)
            } else if !entry.isUTF8 {
                skipped.append(FileReport(path: "\(name)/\(relative)", reason: Self.notUTF8, keptAt: path))
            } else if prefix.isEmpty && entry.name == CaptureContext.fileName && !entry.isDirectory {
                contextFile = path
            } else if entry.isDirectory {
                if depth + 1 < Self.maximumDepth {
                    try collect(folder: path, prefix: relative, depth: depth + 1)
                } else {
                    skipped.append(FileReport(
                        path: "\(name)/\(relative)/",
                        reason: "folder nested deeper than \(Self.maximumDepth) levels; left in place with all it holds",
                        keptAt: path))
                }
            } else {
                files.append(InboxFile(setName: name, relativePath: relative, absolutePath: path))
            }
        }
    }

    private struct Entry {
        var name: String
        var isDirectory: Bool
        /// False for a name that is not valid UTF-8: it cannot be carried safely through the pipeline,
        /// and `name` shows its invalid bytes as `\xFF`.
        var isUTF8: Bool
    }

    /// A folder's entries by lstat (links are not followed).
    private static func entries(of folder: String) throws -> [Entry] {
        guard let stream = opendir(folder) else {
            throw FileOperationError(operation: "list", path: folder, code: errno)
        }
        defer { closedir(stream) }
        var result: [Entry] = []
        while let entry = readdir(stream) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw != [46], raw != [46, 46] else { continue }
            var info = stat()
            let found = (raw + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { fstatat(dirfd(stream), $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
            }
            let isDirectory = found == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            let name = String(validating: raw, as: UTF8.self)
            result.append(Entry(name: name ?? escapingInvalidUTF8(raw), isDirectory: isDirectory, isUTF8: name != nil))
        }
        return result
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
