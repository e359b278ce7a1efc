import Foundation
import Logging

/// One way the library and the catalogue disagree.
package struct LibraryProblem: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case missingOriginal = "missing original"
        case changedOriginal = "changed original"
        case missingThumbnail = "missing thumbnail"
        case wrongThumbnail = "wrong thumbnail"
        case missingContext = "missing capture.json"
        case unreferenced = "unreferenced file"
    }

    package var kind: Kind
    /// The file, relative to the library.
    package var path: String
    package var detail: String
    /// What `LibraryVerifier.repair(_:)` did about it; nil while it is not repaired.
    package var repair: String?
}
