import Foundation
import Logging

/// An original changed on disk between its analysis and its commit: its set is not committed with
/// stale data, but stays in the inbox for the next run.
struct ChangedFileError: Error, CustomStringConvertible {
    var path: String

    var description: String { "\(path) changed while being ingested" }
}
