import ArgumentParser
import Catalog
import Foundation

extension ParsableCommand {
    /// Refuses an id prefix too short to mean one capture (an empty one would match them all).
    static func validateIdPrefix(_ id: String, option: String = "ID") throws {
        guard id.count >= Catalogue.minimumIdPrefixLength else {
            throw ValidationError("\(option) must be at least \(Catalogue.minimumIdPrefixLength) characters of a capture's id (see ingest list), got '\(id)'.")
        }
    }

    /// The capture `lookUp` finds for the id prefix `id`; when there is none, or the prefix is
    /// ambiguous, says so on standard error and exits 1.
    static func requiringCapture<T>(_ id: String, _ lookUp: () throws -> T?) throws -> T {
        do {
            if let found = try lookUp() { return found }
            FileHandle.standardError.write(Data("ingest: no capture id starts with '\(id)'; see ingest list.\n".utf8))
        } catch let error as CatalogError {
            guard case .ambiguousId = error else { throw error }
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
        }
        throw ExitCode.failure
    }
}
