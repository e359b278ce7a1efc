import Foundation

/// One inbox sub-folder and what it holds: candidate photos, and files the pipeline leaves alone.
public struct PhotoSet: Sendable {
    public var name: String
    public var folder: String
    /// Regular files, symbolic links and special files, to analyse or quarantine; sorted by path.
    public var files: [InboxFile]
    /// Hidden files (`.DS_Store`) and names that are not UTF-8: ignored and left where they are.
    public var ignored: [String]
    /// The absolute path of the set's `capture.json` sidecar (see `CaptureContext`), when the set
    /// folder's root has one; it is not among `files`.
    public var contextFile: String?

    /// Sub-folders are followed to this depth; deeper ones are left in place and reported.
    public static let maximumDepth = 16

    /// The sets of an inbox: its non-hidden sub-folders, sorted by name. Files lying directly in the
    /// inbox belong to no set and are left alone.
    public static func sets(inInbox inbox: String) throws -> [PhotoSet] {
        try entries(of: inbox)
            .filter { !$0.name.hasPrefix(".") && $0.kind == .directory }
            .map { try PhotoSet(name: $0.name, folder: (inbox as NSString).appendingPathComponent($0.name)) }
            .sorted { $0.name < $1.name }
    }

    /// Lists a set folder recursively, never following symbolic links.
    public init(name: String, folder: String) throws {
        self.name = name
        self.folder = folder
        files = []
        ignored = []
        try collect(folder: folder, prefix: "", depth: 0)
        files.sort { $0.relativePath < $1.relativePath }
    }

    private mutating func collect(folder: String, prefix: String, depth: Int) throws {
        for entry in try Self.entries(of: folder) {
            let relative = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
            let path = (folder as NSString).appendingPathComponent(entry.name)
            if entry.name.hasPrefix(".") || entry.kind == .unnamed {
                ignored.append(relative)
            } else if prefix.isEmpty && entry.name == CaptureContext.fileName && entry.kind != .directory {
                contextFile = path
            } else if entry.kind == .directory {
                if depth + 1 < Self.maximumDepth {
                    try collect(folder: path, prefix: relative, depth: depth + 1)
                } else {
                    ignored.append(relative + "/")
                }
            } else {
                files.append(InboxFile(setName: name, relativePath: relative, absolutePath: path))
            }
        }
    }

    private enum EntryKind { case directory, other, unnamed }

    /// A folder's entries by lstat (links are not followed). Names that are not valid UTF-8
    /// cannot be carried safely through the pipeline and come back as `.unnamed`.
    private static func entries(of folder: String) throws -> [(name: String, kind: EntryKind)] {
        guard let stream = opendir(folder) else {
            throw FileOperationError(operation: "list", path: folder, code: errno)
        }
        defer { closedir(stream) }
        var result: [(String, EntryKind)] = []
        while let entry = readdir(stream) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw != [46], raw != [46, 46] else { continue }
            guard let name = String(validating: raw, as: UTF8.self) else {
                result.append((String(decoding: raw, as: UTF8.self), .unnamed))
                continue
            }
            var info = stat()
            let path = (folder as NSString).appendingPathComponent(name)
            let isDirectory = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            result.append((name, isDirectory ? .directory : .other))
        }
        return result
    }
}
