/// One entry of a folder, as `lstat` sees it: a symbolic link is a link, never what it points to.
public struct DirectoryEntry: Sendable {
    /// The name as text; bytes that are not UTF-8 are written as `\xFF` (see `isUTF8`).
    public var name: String
    /// False for a name that is not valid UTF-8: it cannot be carried safely through the pipeline,
    /// and `name` shows its invalid bytes escaped.
    public var isUTF8: Bool
    /// A folder (not a link to one).
    public var isDirectory: Bool
    /// A name that starts with a dot.
    public var isHidden: Bool { name.hasPrefix(".") }
}
