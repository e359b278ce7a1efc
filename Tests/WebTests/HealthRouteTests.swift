import Foundation
import Pipeline
import TestSupport
import XCTest
import SystemPackage

/// `/healthz` and `/readyz`, in this process (`RouterClient`): ready on a working library, and
/// each failed check named, with what was found, when it is not.
final class HealthRouteTests: XCTestCase {
    func testHealthzAndReadyz_sayWhatFailed() throws {
        // The catalogue moved out of the library, so the library can be made read-only while the
        // catalogue still answers.
        let work = try ServedSamples.library(for: self)
        try IngestHarness.shell("mv library/catalog.sqlite* .", in: work.folder)
        var config = try PipelineConfig.load(path: FilePath(work.folder.appendingPathComponent("pipeline.json").path))
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
        let found = try readinessChecks(try notReady.json())
        XCTAssertEqual(found.filter { !$0.value.ok }.map(\.key), ["library"], notReady.text)
        XCTAssertTrue(found["library"]?.detail.contains(served.work.library.path) == true, notReady.text)
        XCTAssertEqual(try served.client.send("GET", "/healthz").status, 200, "the process is up all the same")
    }
}
