import Foundation
@testable import Pipeline
import TestSupport
import XCTest

/// The reader's acceptance thresholds are fitted by bench/fit_rules.py, not chosen: each shipped
/// value is one of the values the script's grid tried, and the file holding them is the script's.
final class AcceptanceRulesTests: XCTestCase {
    /// GRID of bench/fit_rules.py: threshold name → the values it tries.
    private func grid() throws -> [String: [Double?]] {
        let script = try String(contentsOf: IngestHarness.packageRoot.appendingPathComponent("bench/fit_rules.py"), encoding: .utf8)
        let block = try XCTUnwrap(script.range(of: "GRID = {").flatMap { start in
            script[start.upperBound...].range(of: "}").map { script[start.upperBound..<$0.lowerBound] }
        })
        var grid: [String: [Double?]] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            // Python's None is a value of its own (nil); a token that is neither it nor a number is dropped.
            grid[name] = parts[1].split(whereSeparator: { "[], ".contains($0) }).compactMap { token -> Double?? in
                token == "None" ? .some(nil) : Double(token).map { .some($0) }
            }
        }
        return grid
    }

    func testFitted_everyThreshold_isAValueTheFitTried() throws {
        let grid = try grid()
        let fitted = AcceptanceRules.fitted
        let values: [String: Double?] = [
            "trustedLines": Double(fitted.trustedLines), "confirmedLines": Double(fitted.confirmedLines),
            "quietZoneNearest": fitted.quietZoneNearest, "quietZoneLines": Double(fitted.quietZoneLines),
            "quietZoneCrossings": Double(fitted.quietZoneCrossings), "contradictingShortfall": Double(fitted.contradictingShortfall),
            "quietZoneExemptLines": fitted.quietZoneExemptLines.map(Double.init),
            "templateExemptLines": fitted.templateExemptLines.map(Double.init),
        ]
        XCTAssertEqual(Set(grid.keys), Set(values.keys), "the grid and AcceptanceRules name the same thresholds")
        for (name, value) in values {
            let tried = grid[name, default: []]
            XCTAssertTrue(tried.contains { $0 == value || ($0 != nil && value != nil && abs($0! - value!) < 1e-6) },
                          "\(name) \(String(describing: value)) is not on the grid \(tried)")
        }
    }

    func testFitted_isWrittenByTheFittingScript() throws {
        let file = IngestHarness.packageRoot.appendingPathComponent("Sources/Pipeline/Analysis/Barcodes/AcceptanceRules+Fitted.swift")
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix("// Written by bench/fit_rules.py"))
    }

    func testRules_roundTripThroughJSON_asTheFittingScriptWritesThem() throws {
        let json = #"{"trustedLines": 3, "confirmedLines": 12, "quietZoneNearest": 3.0, "quietZoneLines": 3, "#
            + #""quietZoneCrossings": 2, "contradictingShortfall": 0.25, "quietZoneExemptLines": null, "templateExemptLines": null}"#
        let rules = try JSONDecoder().decode(AcceptanceRules.self, from: Data(json.utf8))
        XCTAssertEqual(rules, AcceptanceRules(trustedLines: 3, confirmedLines: 12, quietZoneNearest: 3, quietZoneLines: 3,
                                              quietZoneCrossings: 2, quietZoneExemptLines: nil, contradictingShortfall: 0.25,
                                              templateExemptLines: nil))
        let exempting = try JSONDecoder().decode(AcceptanceRules.self, from: Data(json.replacingOccurrences(of: "null", with: "20").utf8))
        XCTAssertEqual(exempting.quietZoneExemptLines, 20)
        XCTAssertEqual(exempting.templateExemptLines, 20)
    }
}
