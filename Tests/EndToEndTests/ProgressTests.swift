import Foundation
import TestSupport
import XCTest

/// What `ingest run` shows while it works: a redrawn line on a terminal, log lines elsewhere.
final class ProgressTests: XCTestCase {
    func testRun_withoutTerminal_logsOneLinePerSetAtTheDefaultLevel() throws {
        let work = try SampleLibrary(for: self)
        let run = try work.ingest(["run"])
        let setLines = run.stderr.split(separator: "\n").filter { $0.contains("set committed") }
        XCTAssertEqual(setLines.count, 5, run.stderr)
        XCTAssertTrue(setLines.contains { $0.contains("set=shelf-dump") && $0.contains("captures=3") }, run.stderr)
        XCTAssertFalse(run.stderr.contains("\r"), "no progress line without a terminal")
    }

    func testRun_quiet_logsNoSetLines() throws {
        let work = try SampleLibrary(for: self)
        let run = try work.ingest(["run", "--quiet"])
        XCTAssertFalse(run.stderr.contains("set committed"), run.stderr)
    }

    func testRun_onATerminal_redrawsAProgressLineAndEndsWithTheSummary() throws {
        let work = try SampleLibrary(for: self)
        // script(1) gives the run a pseudo-terminal and copies what it shows to standard output; the
        // run exits 1 for the samples' quarantined files.
        let screen = try IngestHarness.shell("script -qec \"'\(IngestHarness.binary.path)' run\" /dev/null; test $? = 1",
                                             in: work.folder)
        XCTAssertTrue(screen.contains("\rphotos 20/20  sets 5/5"), screen.debugDescription)
        XCTAssertTrue(screen.contains("\r\u{1B}[Ksets 5, captures 7, photos 17,"),
                      "the line is erased before the summary: \(screen.debugDescription)")
    }

    func testProgressDescription_showsCountsRateAndTimeLeft() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let screen = try IngestHarness.shell(
            "script -qec \"'\(IngestHarness.binary.path)' thumbnails --regenerate --width 200\" /dev/null", in: work.folder)
        let line = try XCTUnwrap(screen.components(separatedBy: "\r").last { $0.hasPrefix("photos 17/17") }, screen.debugDescription)
        XCTAssertNotNil(line.range(of: #"^photos 17/17  [0-9.]+/s"#, options: .regularExpression), line.debugDescription)
    }
}
