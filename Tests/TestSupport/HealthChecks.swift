package import Foundation
import XCTest

extension XCTestCase {
    /// Makes `folder` read-only, for root too (`chattr +i`); undone at the test's end.
    package func makeReadOnly(_ folder: URL) throws {
        try IngestHarness.shell("chmod a-w '\(folder.path)' && if [ $(id -u) = 0 ]; then chattr +i '\(folder.path)'; fi", in: folder)
        addTeardownBlock {
            _ = try? IngestHarness.execute(URL(fileURLWithPath: "/bin/sh"),
                                           ["-c", "chattr -i '\(folder.path)' 2>/dev/null; chmod u+w '\(folder.path)'"],
                                           in: folder.deletingLastPathComponent())
        }
    }

    /// The checks of a readiness report (`/readyz`, `ingest status --json`) by name: passed, and
    /// what they say.
    package func readinessChecks(_ json: Any?) throws -> [String: (ok: Bool, detail: String)] {
        let object = try XCTUnwrap(json as? [String: Any])
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: checks.map {
            ($0["name"] as? String ?? "", ($0["ok"] as? Bool ?? false, $0["detail"] as? String ?? ""))
        })
    }
}
