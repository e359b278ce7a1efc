import Catalog
import Foundation
import Logging

/// What `LibraryVerifier` found.
public struct LibraryReport: Sendable {
    /// Catalogued photos checked, and files found in the library.
    public var photos: Int
    public var files: Int
    public var problems: [LibraryProblem]
    /// For a sample: how many photos the catalogue holds, of which `photos` were checked.
    public var sampledFrom: Int?
    /// For a sample: how many of the checked photos have a problem.
    public var photosWithProblems = 0

    public init(photos: Int, files: Int, problems: [LibraryProblem], sampledFrom: Int? = nil) {
        self.photos = photos
        self.files = files
        self.problems = problems
        self.sampledFrom = sampledFrom
    }

    /// The problems no repair has fixed.
    public var unrepaired: [LibraryProblem] { problems.filter { $0.repair == nil } }
    /// The library matches the catalogue, or every difference was repaired.
    public var isClean: Bool { unrepaired.isEmpty }
}
