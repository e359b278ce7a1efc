package import Foundation
import XCTest

/// Temporary folders for tests.
package enum TemporaryFolder {
    /// A new empty folder named after `label`, which the caller deletes (for fixtures shared by a
    /// whole test class, or folders a test leaves for a person to inspect).
    package static func make(_ label: String = "ingest-tests") throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A new folder named after `label` that `prepare` filled (a fixture made once for a test
    /// class, which deletes it when done), or nil when `prepare` says it could not: the folder is
    /// then deleted at once, so a failed set-up leaves nothing behind.
    package static func prepared(_ label: String, _ prepare: (URL) -> Bool) -> URL? {
        guard let folder = try? make(label) else { return nil }
        guard prepare(folder) else {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
        return folder
    }
}

extension XCTestCase {
    /// The path of a new empty folder that is deleted when the test ends.
    package func makeTemporaryFolder() throws -> String {
        let folder = try TemporaryFolder.make(String(describing: type(of: self))).path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }
}
