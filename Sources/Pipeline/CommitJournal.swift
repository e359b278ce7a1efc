import Foundation

/// The intent of one set's commit, written before any library file is placed and removed after the
/// inbox is cleaned up. A journal still present at start-up marks a commit a crash interrupted.
struct CommitJournal: Codable {
    struct Entry: Codable {
        /// Absolute inbox path of the original.
        var source: String
        /// Library-relative paths the original and thumbnail are placed at.
        var original: String
        var thumbnail: String
        /// Absolute path of the thumbnail in staging.
        var staged: String
        var sha256: String
    }

    /// The set's `capture.json`: absolute inbox path, and library-relative path it is placed at.
    struct Context: Codable {
        var source: String
        var placed: String
    }

    var setName: String
    var entries: [Entry]
    /// Absent in journals of sets without a sidecar (and in those of earlier versions).
    var context: Context?

    /// Writes the journal durably into `folder`; returns its path.
    func write(in folder: String) throws -> String {
        try FileOperations.makeDirectories(folder)
        let path = (folder as NSString).appendingPathComponent(UUID().uuidString.lowercased() + ".json")
        try FileOperations.write(Array(try JSONEncoder().encode(self)), to: path)
        FileOperations.syncDirectory(folder)
        return path
    }

    /// Journals left in `folder`, oldest name first.
    static func pending(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    static func read(_ path: String) -> CommitJournal? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(CommitJournal.self, from: data)
    }
}
