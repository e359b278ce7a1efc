import ArgumentParser
import Catalog
import Foundation
import Logging
import Pipeline

/// A configuration or usage problem: printed as is, exit code 64 (EX_USAGE).
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
