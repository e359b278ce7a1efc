import Catalog
import Foundation
import Logging

/// Watching had to stop: what happened, and what became of the sets.
public struct IngestWatchError: Error, CustomStringConvertible, Sendable {
    public var message: String

    public var description: String { message }
}
