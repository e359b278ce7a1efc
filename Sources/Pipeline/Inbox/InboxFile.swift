package import SystemPackage

/// A file of a set, as found in the inbox.
package struct InboxFile: Sendable, Hashable {
    /// The set (inbox sub-folder) it belongs to.
    package var setName: String
    /// Its path below the set folder: `IMG_0001.jpg` or `sub/IMG_0001.jpg`.
    package var relativePath: String
    package var absolutePath: FilePath

    package init(setName: String, relativePath: String, absolutePath: FilePath) {
        self.setName = setName
        self.relativePath = relativePath
        self.absolutePath = absolutePath
    }

    package var name: String { FilePath(relativePath).lastComponent?.string ?? relativePath }
}
