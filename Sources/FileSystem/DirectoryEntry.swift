/// One entry of a folder, as `lstat` sees it: a symbolic link is a link, never what it points to.
package struct DirectoryEntry: Sendable {
    /// The name as text; bytes that are not UTF-8 are written as `\xFF` (see `isUTF8`).
    package var name: String
    /// False for a name that is not valid UTF-8: it cannot be carried safely through the pipeline,
    /// and `name` shows its invalid bytes escaped.
    package var isUTF8: Bool
    /// A folder (not a link to one).
    package var isDirectory: Bool
    /// A name that starts with a dot.
    package var isHidden: Bool { name.hasPrefix(".") }
}
