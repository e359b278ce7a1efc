import Foundation
import TestSupport
import XCTest

/// `--log-format json`: every line on standard error one JSON object a log collector parses, and
/// the run's summary one record of them.
final class JSONLogTests: XCTestCase {
    private func records(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(object as? [String: Any], "not an object: \(line)")
        }
    }

    func testRun_jsonLogs_areOneObjectALine_withTheSummaryAsARecord() throws {
        let work = try SampleLibrary(for: self)
        try FileManager.default.moveItem(at: work.inbox.appendingPathComponent("no-barcode"),
                                         to: work.inbox.appendingPathComponent("no \"barcode\"\n\u{1B}[2J"))
        let run = try work.ingest(["run", "--verbose", "--log-format", "json"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = try records(run.stderr)
        XCTAssertGreaterThan(lines.count, 5)
        for line in lines {
            XCTAssertEqual(Set(line.keys).subtracting(["metadata"]), ["time", "level", "label", "message"], "\(line)")
            XCTAssertNotNil((line["time"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) },
                            "\(line)")
        }
        let committed = lines.filter { $0["message"] as? String == "set committed" }
        XCTAssertEqual(committed.count, 5)
        let names = committed.compactMap { ($0["metadata"] as? [String: Any])?["set"] as? String }
        XCTAssertTrue(names.contains("no \"barcode\"\n\u{1B}[2J"), "a name as it is, escaped by JSON: \(names)")

        let summary = try XCTUnwrap(lines.last { $0["message"] as? String == "run finished" }?["metadata"] as? [String: Any])
        XCTAssertEqual(summary["sets"] as? String, "5")
        XCTAssertEqual(summary["captures"] as? String, "7")
        XCTAssertEqual(summary["photos"] as? String, "17")
        let quarantined = try XCTUnwrap(summary["quarantined"] as? [[String: Any]])
        XCTAssertEqual(quarantined.compactMap { $0["path"] as? String }.sorted(),
                       ["bad-files/not_a_photo.jpg", "bad-files/zz_empty.jpg", "bad-files/zz_truncated.jpg"])
        XCTAssertTrue(quarantined.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
    }
}
