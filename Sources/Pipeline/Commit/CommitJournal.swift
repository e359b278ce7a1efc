import Foundation

/// The intent of one set's commit, written before any file of the set is placed or moved and removed
/// once everything it names is done. A journal still present at start-up marks a commit a crash
/// interrupted; it names every path the commit may have touched, so recovery can finish or undo it
/// and remove the temporary files beside them (see docs/commit-protocol.md).
struct CommitJournal: Codable, Sendable {
    struct Entry: Codable, Sendable {
        /// Absolute inbox path of the original.
        var source: String
        /// Library-relative paths the original and thumbnail are placed at.
        var original: String
        var thumbnail: String
        /// Absolute path of the thumbnail in staging.
        var staged: String
        var sha256: String
        /// The original as it was read; absent in journals of earlier versions.
        var identity: FileIdentity?
    }

    /// The set's `capture.json`: absolute inbox path, and library-relative path it is placed at.
    struct Context: Codable, Sendable {
        var source: String
        var placed: String
    }

    /// A file of the set going to the quarantine (a reject or a duplicate), with its `.reason` note.
    struct Aside: Codable, Sendable {
        /// Absolute inbox path.
        var source: String
        /// Absolute path in the quarantine, which may lie outside the library.
        var destination: String
        var note: String
    }

    var setName: String
    /// The set's folder in the inbox: emptied folders are removed up to it, never above. Absent in
    /// journals of earlier versions.
    var setFolder: String?
    /// Whether the commit takes the originals out of the inbox, so that recovery does as the
    /// interrupted run would have, whatever the configuration says now. Absent in earlier journals.
    var originals: PipelineConfig.Originals?
    var entries: [Entry]
    /// Absent in journals of sets without a sidecar (and in those of earlier versions).
    var context: Context?
    /// Absent in journals of earlier versions, which set files aside before writing a journal.
    var asides: [Aside]?

    /// Writes the journal durably into `folder`; returns its path.
    func write(in folder: String) throws -> String {
        try FileOperations.makeDirectories(folder)
        let path = (folder as NSString).appendingPathComponent(UUID().uuidString.lowercased() + ".json")
        try FileOperations.write(Array(try JSONEncoder().encode(self)), to: path)
        try FileOperations.syncDirectory(folder)
        return path
    }

    /// Journals left in `folder`, oldest name first; none when there is no such folder. Throws when
    /// the folder cannot be listed: a journal passed over is a commit neither finished nor undone.
    static func pending(in folder: String) throws(FileOperationError) -> [String] {
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.entries(of: folder)
        } catch {
            if error.code == ENOENT { return [] }
            throw FileOperationError(operation: "list the commit journals in", path: folder, code: error.code)
        }
        return entries.filter { !$0.isHidden && $0.name.hasSuffix(".json") }
            .map { (folder as NSString).appendingPathComponent($0.name) }
    }

    /// The journal at `path`, or nil when its bytes are not a journal (damaged after it was written).
    /// Throws when the file cannot be read: it may be sound, and must never be taken for damaged.
    static func read(_ path: String) throws(FileOperationError) -> CommitJournal? {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(of: path, flags: O_NOFOLLOW)
        } catch {
            throw FileOperationError(operation: "read the commit journal", path: path, code: error.code)
        }
        return try? JSONDecoder().decode(CommitJournal.self, from: Data(bytes))
    }

    /// Library-relative paths the commit places.
    var placed: [String] {
        entries.flatMap { [$0.original, $0.thumbnail] } + (context.map { [$0.placed] } ?? [])
    }

    /// Inbox files the commit moves or removes: originals, the sidecar and the files set aside.
    var sources: [String] {
        entries.map(\.source) + (context.map { [$0.source] } ?? []) + (asides ?? []).map(\.source)
    }
}

extension PipelineConfig.Originals: Codable {}
