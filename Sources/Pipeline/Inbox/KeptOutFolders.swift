internal import SystemPackage

/// The folders an inbox walk never enters: the library and the quarantine, found by what they are
/// (device and inode) rather than by their path, so that one moved or linked into the inbox after
/// the configuration was checked is still kept out — a run never ingests its own catalogue,
/// originals and thumbnails, nor quarantines its quarantine.
package struct KeptOutFolders: Sendable {
    private struct Folder: Sendable {
        var key: String
        var device: UInt64
        var inode: UInt64
    }

    private let folders: [Folder]

    /// None: every folder is walked.
    package static let none = KeptOutFolders(folders: [])

    private init(folders: [Folder]) {
        self.folders = folders
    }

    /// The library and quarantine of `config`, as they are now (a folder not yet made is none).
    package init(_ config: PipelineConfig) {
        folders = [("library", config.library), ("quarantine", config.quarantine)].compactMap { key, path in
            guard let info = try? path.stat(followTargetSymlink: true), info.type == .directory else { return nil }
            return Folder(key: key, device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue))
        }
    }

    /// The configuration key of the folder at `path` (not followed if it is a link), when it is one of them.
    func key(of path: FilePath) -> String? {
        guard !folders.isEmpty, let info = try? path.stat(followTargetSymlink: false), info.type == .directory else {
            return nil
        }
        return folders.first { $0.device == UInt64(info.deviceID.rawValue) && $0.inode == UInt64(info.inode.rawValue) }?.key
    }

    /// The reason a kept-out folder found in the inbox is reported.
    static func reason(_ key: String) -> String {
        "this is the \(key) folder, which lies inside the inbox: never ingested; move it out of the inbox"
    }
}
