import Foundation

/// A `capture.json` that cannot be used: the set is ingested without context and the sidecar left in the inbox.
package struct CaptureContextError: Error, CustomStringConvertible, Sendable, Equatable {
    package var file: String
    package var message: String

    package var description: String { "\(file): \(message)" }
}
