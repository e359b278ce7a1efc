import Foundation
package import SystemPackage
import Logging

/// Watching the inbox failed: the folder, and what went wrong.
package struct InboxWatchError: Error, CustomStringConvertible, Sendable {
    package var path: FilePath
    package var message: String

    package var description: String { "\(path): \(message)" }
}
