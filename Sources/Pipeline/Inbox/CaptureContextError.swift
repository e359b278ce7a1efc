import Foundation

/// A `capture.json` that cannot be used: the set is ingested without context and the sidecar left in the inbox.
public struct CaptureContextError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var message: String

    public var description: String { "\(file): \(message)" }
}
