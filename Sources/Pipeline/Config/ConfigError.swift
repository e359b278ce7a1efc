import Catalog
import Foundation

/// A problem in the configuration: the file, the key and what is wrong.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var message: String

    public var description: String { "\(file): \(message)" }
}
