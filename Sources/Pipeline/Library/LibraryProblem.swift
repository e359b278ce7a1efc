import Catalog
import Foundation
import Logging

/// One way the library and the catalogue disagree.
public struct LibraryProblem: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case missingOriginal = "missing original"
        case changedOriginal = "changed original"
        case missingThumbnail = "missing thumbnail"
        case wrongThumbnail = "wrong thumbnail"
        case missingContext = "missing capture.json"
        case unreferenced = "unreferenced file"
    }

    public var kind: Kind
    /// The file, relative to the library.
    public var path: String
    public var detail: String
    /// What `LibraryVerifier.repair(_:)` did about it; nil while it is not repaired.
    public var repair: String?
}
