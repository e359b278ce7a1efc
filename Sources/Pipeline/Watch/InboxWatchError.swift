import Foundation
import Logging

/// Watching the inbox failed: the folder, and what went wrong.
public struct InboxWatchError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }
}
