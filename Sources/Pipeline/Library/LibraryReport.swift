import Catalog
import Foundation
import Logging

/// What `LibraryVerifier` found.
public struct LibraryReport: Sendable {
    /// Catalogued photos checked, and files found in the library.
    public var photos: Int
    public var files: Int
    public var problems: [LibraryProblem]

    /// The problems no repair has fixed.
    public var unrepaired: [LibraryProblem] { problems.filter { $0.repair == nil } }
    /// The library matches the catalogue, or every difference was repaired.
    public var isClean: Bool { unrepaired.isEmpty }
}
