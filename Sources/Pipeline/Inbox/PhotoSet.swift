import FileSystem
package import SystemPackage

/// One inbox sub-folder and what it holds: candidate photos, and files the pipeline leaves alone.
package struct PhotoSet: Sendable {
    package var name: String
    package var folder: FilePath
    /// Regular files, symbolic links and special files, to analyse or quarantine; sorted by path.
    package var files: [InboxFile]
    /// Hidden files and folders (`.DS_Store`): ignored and left where they are, without a word.
    package var ignored: [String]
    /// What cannot be ingested and is left where it is, with the reason the run summary gives: names
    /// that are not UTF-8, folders nested deeper than `maximumDepth`.
    package var skipped: [FileReport]
    /// The absolute path of the set's `capture.json` sidecar (see `CaptureContext`), when the set
    /// folder's root has one; it is not among `files`.
    package var contextFile: FilePath?

    /// Sub-folders are followed to this depth; deeper ones are left in place and reported.
    package static let maximumDepth = 16

    /// The sets of an inbox: its non-hidden sub-folders, sorted by name. Files lying directly in the
    /// inbox belong to no set and are left alone. A folder whose name is not UTF-8 comes back as a set
    /// without files that reports itself skipped, so the run summary names it.
    /// The folders of `keptOut` (the library, the quarantine) are never walked: each found here is a
    /// set that reports itself skipped.
    package static func sets(inInbox inbox: FilePath, keepingOut keptOut: KeptOutFolders = .none) throws -> [PhotoSet] {
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.entries(of: inbox)
        } catch {
            throw FileOperationError(operation: "list", path: inbox, error)
        }
        return try entries
            .filter { !$0.isHidden && $0.isDirectory }
            .map { entry in
                let folder = inbox.appending(entry.name)
                guard entry.isUTF8 else {
                    return PhotoSet(name: entry.name, folder: folder, files: [], ignored: [], skipped: [
                        FileReport(path: entry.name, reason: Self.notUTF8, keptAt: folder.string)])
                }
                if let key = keptOut.key(of: folder) {
                    return PhotoSet(name: entry.name, folder: folder, files: [], ignored: [], skipped: [
                        FileReport(path: "\(entry.name)/", reason: KeptOutFolders.reason(key), keptAt: folder.string)])
                }
                return try PhotoSet(name: entry.name, folder: folder, keepingOut: keptOut)
            }
    }

    /// A set as a listing found it.
    init(name: String, folder: FilePath, files: [InboxFile], ignored: [String] = [], skipped: [FileReport] = [],
         contextFile: FilePath? = nil) {
        self.name = name
        self.folder = folder
        self.files = files
        self.ignored = ignored
        self.skipped = skipped
        self.contextFile = contextFile
    }

    private static let notUTF8 = "the name is not valid UTF-8, so it cannot be catalogued; left in place (rename it to ingest it)"

    /// Lists a set folder recursively, never following symbolic links nor entering the folders of `keptOut`.
    package init(name: String, folder: FilePath, keepingOut keptOut: KeptOutFolders = .none) throws {
        self.name = name
        self.folder = folder
        files = []
        ignored = []
        skipped = []
        try Directory.walk(folder) { entry, relativePath, depth in
            let path = folder.pushing(relativePath)
            let relative = relativePath.string
            if entry.isHidden {
                ignored.append(relative)
            } else if !entry.isUTF8 {
                skipped.append(FileReport(path: "\(name)/\(relative)", reason: Self.notUTF8, keptAt: path.string))
            } else if depth == 0 && entry.name == CaptureContext.fileName {
                // Whatever it is: a folder of that name is reported as the unusable sidecar it is
                // (`CaptureContext.load`), never taken for a folder of photos.
                contextFile = path
            } else if entry.isDirectory {
                if let key = keptOut.key(of: path) {
                    skipped.append(FileReport(path: "\(name)/\(relative)/", reason: KeptOutFolders.reason(key), keptAt: path.string))
                    return false
                }
                guard depth + 1 < Self.maximumDepth else {
                    skipped.append(FileReport(
                        path: "\(name)/\(relative)/",
                        reason: "folder nested deeper than \(Self.maximumDepth) levels; left in place with all it holds",
                        keptAt: path.string))
                    return false
                }
                return true
            } else {
                files.append(InboxFile(setName: name, relativePath: relative, absolutePath: path))
            }
            return false
        }
        files.sort { $0.relativePath < $1.relativePath }
    }
}
