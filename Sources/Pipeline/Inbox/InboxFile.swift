import Foundation

/// A file of a set, as found in the inbox.
public struct InboxFile: Sendable, Hashable {
    /// The set (inbox sub-folder) it belongs to.
    public var setName: String
    /// Its path below the set folder: `IMG_0001.jpg` or `sub/IMG_0001.jpg`.
    public var relativePath: String
    public var absolutePath: String

    public init(setName: String, relativePath: String, absolutePath: String) {
        self.setName = setName
        self.relativePath = relativePath
        self.absolutePath = absolutePath
    }

    public var name: String { (relativePath as NSString).lastPathComponent }
}
