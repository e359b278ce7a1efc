import Foundation
import Pipeline
import TestSupport
import XCTest

/// `/healthz` and `/readyz`, in this process (`RouterClient`): ready on a working library, and
/// each failed check named, with what was found, when it is not.
final class HealthRouteTests: XCTestCase {
    func testHealthzAndReadyz_sayWhatFailed() throws {
        // The catalogue moved out of the library, so the library can be made read-only while the
        // catalogue still answers.
        let work = try ServedSamples.library(for: self)
        try IngestHarness.shell("mv library/catalog.sqlite* .", in: work.folder)
        var config = try PipelineConfig.load(path: work.folder.appendingPathComponent("pipeline.json").path)
        config.catalog = work.folder.appendingPathComponent("catalog.sqlite").path
        let served = try ServedSamples(work: work, config: config, test: self)

        let health = try served.client.send("GET", "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try health.json() as? [String: String], ["status": "up"])
        let ready = try served.client.send("GET", "/readyz")
        XCTAssertEqual(ready.status, 200, ready.text)
        XCTAssertEqual((try ready.json() as? [String: Any])?["ready"] as? Bool, true, ready.text)

        try makeReadOnly(served.work.library)
        let notReady = try served.client.send("GET", "/readyz")
        XCTAssertEqual(notReady.status, 503, notReady.text)
        let found = try checks(try notReady.json())
        XCTAssertEqual(found.filter { !$0.value.ok }.map(\.key), ["library"], notReady.text)
        XCTAssertTrue(found["library"]?.detail.contains(served.work.library.path) == true, notReady.text)
        XCTAssertEqual(try served.client.send("GET", "/healthz").status, 200, "the process is up all the same")
    }

    /// Makes the library folder read-only, for root too (`chattr +i`); undone at the test's end.
    private func makeReadOnly(_ folder: URL) throws {
        try IngestHarness.shell("chmod a-w '\(folder.path)' && if [ $(id -u) = 0 ]; then chattr +i '\(folder.path)'; fi", in: folder)
        addTeardownBlock {
            _ = try? IngestHarness.execute(URL(fileURLWithPath: "/bin/sh"),
                                           ["-c", "chattr -i '\(folder.path)' 2>/dev/null; chmod u+w '\(folder.path)'"],
                                           in: folder.deletingLastPathComponent())
        }
    }

    private func checks(_ json: Any?) throws -> [String: (ok: Bool, detail: String)] {
        let object = try XCTUnwrap(json as? [String: Any])
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: checks.map {
            ($0["name"] as? String ?? "", ($0["ok"] as? Bool ?? false, $0["detail"] as? String ?? ""))
        })
    }
}
