import Glibc

/// One entry of a folder, as `lstat` sees it: a symbolic link is a link, never what it points to.
struct DirectoryEntry {
    /// The name as text; bytes that are not UTF-8 are written as `\xFF` (see `isUTF8`).
    var name: String
    /// False for a name that is not valid UTF-8: it cannot be carried safely through the pipeline,
    /// and `name` shows its invalid bytes escaped.
    var isUTF8: Bool
    var isDirectory: Bool
    var isHidden: Bool { name.hasPrefix(".") }
}
