internal import SystemPackage

/// A path a command is to write a new file at (a backup, an export), checked before the work: the
/// error names the path and its folder, never the temporary file the writing goes through.
enum NewFileDestination {
    /// What keeps a file from being written at `path`, or nil when nothing does; a file already
    /// there is a problem unless `mayReplace`.
    static func problem(_ path: FilePath, mayReplace: Bool = false) -> String? {
        let folder = path.removingLastComponent()
        let shown: FilePath = folder.isEmpty ? "." : folder
        let info: Stat
        do {
            info = try shown.stat()
        } catch {
            return error == .noSuchFileOrDirectory ? "its folder \(shown) does not exist" : "its folder \(shown) cannot be reached: \(error)"
        }
        guard info.type == .directory else { return "\(shown) is not a folder" }
        do {
            try shown.checkWritable()
        } catch {
            return "cannot write in its folder \(shown): \(error)"
        }
        if let existing = try? path.stat(followTargetSymlink: false) {
            if existing.type == .directory { return "it is a folder; name a file" }
            if !mayReplace { return "it exists already; name a new file" }
        }
        return nil
    }
}
