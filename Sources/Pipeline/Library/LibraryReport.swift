import Foundation
import Logging

/// What `LibraryVerifier` found, in counts: the problems themselves went to its caller one by one,
/// as they were found, so that memory does not grow with them.
package struct LibraryReport: Sendable, Equatable {
    /// Catalogued photos checked, and files found in the library.
    package var photos: Int
    package var files: Int
    /// Problems found, and how many of them a repair fixed.
    package var problems: Int
    package var repaired: Int
    /// For a sample: how many photos the catalogue holds, of which `photos` were checked.
    package var sampledFrom: Int?
    /// For a sample: how many of the checked photos have a problem.
    package var photosWithProblems = 0

    package init(photos: Int, files: Int, problems: Int, repaired: Int, sampledFrom: Int? = nil) {
        self.photos = photos
        self.files = files
        self.problems = problems
        self.repaired = repaired
        self.sampledFrom = sampledFrom
    }

    /// The problems no repair has fixed.
    package var unrepaired: Int { problems - repaired }
    /// The library matches the catalogue, or every difference was repaired.
    package var isClean: Bool { unrepaired == 0 }
}
