import FileSystem
import Foundation
internal import SystemPackage

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
    /// The catalogued capture the set's captures join once committed (`capture.json`'s `addTo`);
    /// absent for a set that joins none.
    var join: Join?

    /// A merge to make once the rows exist, as step 4 of the commit, so that recovery makes it too.
    struct Join: Codable, Sendable {
        /// The capture's id or a prefix of it, as `capture.json` gave it.
        var target: String
        var captures: [String]
    }

    /// Writes the journal durably into `folder` as `name` (by default a new UUID's); returns its path.
    func write(in folder: FilePath, name: String = UUID().uuidString.lowercased() + ".json") throws -> FilePath {
        try FileOperations.makeDirectories(folder)
        let path = folder.appending(name)
        try FileOperations.write(Array(try JSONEncoder().encode(self)), to: path)
        try DurableFile.syncFolder(folder)
        return path
    }

    /// The file name of a set's journal in its worker's folder: the set's name as far as it is
    /// safe in a file name (64 characters at most), and a hash of all of it, so that two sets never
    /// share one: `shelf_3-5f0c9a1e2b3d4c6f.json`.
    static func fileName(forSet name: String) -> String {
        let safe = String(name.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 // FNV-1a, stable across processes and machines
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return "\(safe.hasPrefix(".") ? "_" + safe.dropFirst() : safe)-\(String(hash, radix: 16)).json"
    }

    /// Journals left in `folder` (`.journal`) and in its workers' folders, oldest name first; none
    /// when there is no such folder. Throws when a folder cannot be listed: a journal passed over
    /// is a commit neither finished nor undone.
    static func pending(in folder: FilePath) throws(FileOperationError) -> [FilePath] {
        var found: [FilePath] = []
        for entry in try entries(of: folder) where !entry.isHidden {
            let path = folder.appending(entry.name)
            // A worker's id never ends in `.json`: whatever does is a journal, to be read (and a
            // folder of that name fails to be, rather than being passed over).
            if entry.name.hasSuffix(".json") {
                found.append(path)
            } else if entry.isDirectory {
                found += try entries(of: path).filter { !$0.isHidden && $0.name.hasSuffix(".json") }
                    .map { path.appending($0.name) }
            }
        }
        return found
    }

    /// The journals of the set `name` in the workers' folders of `folder`.
    static func pending(in folder: FilePath, set name: String) throws(FileOperationError) -> [FilePath] {
        let file = fileName(forSet: name)
        return try workerFolders(in: folder)
            .map { folder.appending($0).appending(file) }
            .filter(FileOperations.exists)
    }

    /// Removes, from every worker's folder in `folder`, the temporary file of a journal for the set
    /// `name` that was never named: its worker was killed while writing it, before it placed anything.
    static func removeUnnamed(in folder: FilePath, set name: String) throws {
        let workers = try workerFolders(in: folder).map { folder.appending($0) }
        try FileOperations.removeTemporaries(inFolders: Set(workers), of: fileName(forSet: name))
    }

    /// The names of the workers' folders in `folder` (`.journal`).
    static func workerFolders(in folder: FilePath) throws(FileOperationError) -> [String] {
        try entries(of: folder).filter { $0.isDirectory && !$0.isHidden && !$0.name.hasSuffix(".json") }.map(\.name)
    }

    /// The entries of the folder at `path`; none when there is no such folder.
    private static func entries(of path: FilePath) throws(FileOperationError) -> [DirectoryEntry] {
        do {
            return try Directory.entries(of: path)
        } catch {
            if error == .noSuchFileOrDirectory { return [] }
            throw FileOperationError(operation: "list the commit journals in", path: path, error)
        }
    }

    /// The journal at `path`, or nil when its bytes are not a journal (damaged after it was written).
    /// Throws when the file cannot be read: it may be sound, and must never be taken for damaged.
    static func read(_ path: FilePath) throws(FileOperationError) -> CommitJournal? {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(of: path, options: .noFollow)
        } catch {
            throw FileOperationError(operation: "read the commit journal", path: path, error)
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
