import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import SystemPackage

/// The `ingest watch` keys of pipeline.json.
final class WatchConfigTests: XCTestCase {
    private func parse(_ json: String) throws -> PipelineConfig {
        try PipelineConfig.parse(Data(json.utf8), file: "pipeline.json", folder: "/srv/ingest")
    }

    private func assertRefused(_ json: String, saying message: String, line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), line: line) {
            XCTAssertEqual("\($0)", "pipeline.json: \(message)", line: line)
        }
    }

    func testParse_withoutWatchKeys_givesTheDefaults() throws {
        let config = try parse("{}")
        XCTAssertEqual(config.settleSeconds, 10)
        XCTAssertEqual(config.rescanSeconds, 300)
        XCTAssertEqual(config.readyMarker, ".ready")
    }

    func testParse_watchKeys_areApplied() throws {
        let config = try parse(#"{"settleSeconds": 2.5, "rescanSeconds": 60, "readyMarker": ".done"}"#)
        XCTAssertEqual(config.settleSeconds, 2.5)
        XCTAssertEqual(config.rescanSeconds, 60)
        XCTAssertEqual(config.readyMarker, ".done")
    }

    func testParse_watchValuesOutOfRange_areRefusedNamingKeyAndRange() {
        assertRefused(#"{"settleSeconds": 0}"#, saying: "settleSeconds must be 1…3600, got 0")
        assertRefused(#"{"rescanSeconds": 5}"#, saying: "rescanSeconds must be 10…86400, got 5")
    }

    func testParse_readyMarkerNotAHiddenFileName_isRefused() {
        assertRefused(#"{"readyMarker": "READY"}"#,
                      saying: #"readyMarker must be a hidden file name (a dot, then no slash), got "READY""#)
        assertRefused(#"{"readyMarker": ".x/y"}"#,
                      saying: #"readyMarker must be a hidden file name (a dot, then no slash), got ".x/y""#)
        assertRefused(#"{"readyMarker": "."}"#,
                      saying: #"readyMarker must be a hidden file name (a dot, then no slash), got ".""#)
    }
}
