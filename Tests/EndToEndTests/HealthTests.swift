import Foundation
import TestSupport
import XCTest

/// `ingest status`: ready on a working library, and each failed check named, with what was found,
/// when it is not. Serve's `/healthz` and `/readyz` are tested in-process (`WebTests.HealthRouteTests`).
final class HealthTests: XCTestCase {
    /// Ingested samples whose catalogue lies outside the library, so the library can be made
    /// read-only while the catalogue still answers.
    private func ingestedSamples(_ settings: [String: Any] = [:]) throws -> SampleLibrary {
        let work = try SampleLibrary(for: self, settings: settings.merging(["catalog": "catalog.sqlite"]) { mine, _ in mine })
        try work.run()
        return work
    }


    func testStatus_ready_thenEachFailureNamed() throws {
        let work = try ingestedSamples()
        let ready = try work.ingest(["status"])
        XCTAssertEqual(ready.status, 0, ready.stdout + ready.stderr)
        XCTAssertTrue(ready.stdout.hasPrefix("ready\n"), ready.stdout)
        let json = try work.ingest(["status", "--json"])
        XCTAssertEqual(try readinessChecks(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))).filter { !$0.value.ok }.count, 0,
                       json.stdout)

        let floor = try ingestedSamples(["minFreeMB": 100_000_000])
        let full = try floor.ingest(["status", "--json"])
        XCTAssertEqual(full.status, 1, full.stdout + full.stderr)
        let disk = try XCTUnwrap(try readinessChecks(try JSONSerialization.jsonObject(with: Data(full.stdout.utf8)))["disk"])
        XCTAssertFalse(disk.ok)
        XCTAssertTrue(disk.detail.contains("below the floor of 100000000 MB"), disk.detail)

        try makeReadOnly(work.library)
        let readOnly = try work.ingest(["status"])
        XCTAssertEqual(readOnly.status, 1, readOnly.stdout + readOnly.stderr)
        XCTAssertTrue(readOnly.stdout.hasPrefix("NOT READY\n"), readOnly.stdout)
        let line = try XCTUnwrap(readOnly.stdout.split(separator: "\n").first { $0.contains("library") })
        XCTAssertTrue(line.contains("FAIL") && line.contains(work.library.lastPathComponent), String(line))
    }
}
