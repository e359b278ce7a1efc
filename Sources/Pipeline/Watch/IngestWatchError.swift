import Foundation
import Logging

/// Watching had to stop: what happened, and what became of the sets.
package struct IngestWatchError: Error, CustomStringConvertible, Sendable {
    package var message: String

    package var description: String { message }
}
