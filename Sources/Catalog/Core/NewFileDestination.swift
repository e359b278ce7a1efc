import Foundation

/// A path a command is to write a new file at (a backup, an export), checked before the work: the
/// error names the path and its folder, never the temporary file the writing goes through.
enum NewFileDestination {
    /// What keeps a file from being written at `path`, or nil when nothing does; a file already
    /// there is a problem unless `mayReplace`.
    static func problem(_ path: String, mayReplace: Bool = false) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let shown = folder.isEmpty ? "." : folder
        var info = stat()
        guard stat(shown, &info) == 0 else {
            return errno == ENOENT ? "its folder \(shown) does not exist" : "its folder \(shown) cannot be reached: \(Self.text(errno))"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(shown) is not a folder" }
        guard access(shown, W_OK) == 0 else { return "cannot write in its folder \(shown): \(Self.text(errno))" }
        if lstat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return "it is a folder; name a file" }
            if !mayReplace { return "it exists already; name a new file" }
        }
        return nil
    }

    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
