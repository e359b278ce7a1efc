import Catalog
import Foundation
import TestSupport
import XCTest

/// Text from the inbox reaches terminals and spreadsheets defused: a control character in a set or
/// file name is shown escaped, never sent to the terminal (an ESC sequence rewrites the screen), and
/// a CSV cell a spreadsheet would run as a formula is written with a `'` before it.
final class SafeTextTests: XCTestCase {
    private let hostileSet = "\u{1B}]0;owned\u{07}\u{1B}[2Jshelf\u{202E}gpj"
    /// A set folder's name holds no `/`, so no URL with its scheme.
    private let formulaSet = "=HYPERLINK(\"evil.example\",\"x\")"

    private func ingestedHostileNames() throws -> SampleLibrary {
        let work = try SampleLibrary(for: self)
        try FileManager.default.moveItem(at: work.inbox.appendingPathComponent("single-product"),
                                         to: work.inbox.appendingPathComponent(hostileSet))
        try FileManager.default.moveItem(at: work.inbox.appendingPathComponent("no-barcode"),
                                         to: work.inbox.appendingPathComponent(formulaSet))
        try FileManager.default.moveItem(at: work.inbox.appendingPathComponent("\(formulaSet)/IMG_0011.jpg"),
                                         to: work.inbox.appendingPathComponent("\(formulaSet)/IMG\u{1B}[1A\u{8}.jpg"))
        let run = try work.ingest(["run", "--verbose"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        assertNoControls(run.stdout + run.stderr, "run")
        XCTAssertTrue(run.stderr.contains(#"\u{1B}]0;owned\u{07}\u{1B}[2Jshelf\u{202E}gpj"#), run.stderr)
        return work
    }

    /// No control character but the line break, no bidirectional override.
    private func assertNoControls(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = text.unicodeScalars.filter {
            ($0.properties.generalCategory == .control && $0 != "\n") || (0x202A ... 0x202E).contains($0.value)
        }
        XCTAssertEqual(found.map { String(format: "U+%04X", $0.value) }, [], "\(what): \(text.debugDescription)", file: file, line: line)
    }

    func testListShowAndLogLines_showControlCharactersEscaped() throws {
        let work = try ingestedHostileNames()
        let list = try work.ingest(["list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        assertNoControls(list.stdout + list.stderr, "list")
        XCTAssertTrue(list.stdout.contains(#"\u{1B}]0;owned"#), list.stdout)

        let capture = try XCTUnwrap(try work.catalogue().captures(matching: CaptureFilter(setName: formulaSet)).first)
        let show = try work.ingest(["show", capture.id])
        XCTAssertEqual(show.status, 0, show.stderr)
        assertNoControls(show.stdout + show.stderr, "show")
        XCTAssertTrue(show.stdout.contains(#"IMG\u{1B}[1A\u{08}.jpg"#), show.stdout)

        let hostile = try XCTUnwrap(try work.catalogue().captures(matching: CaptureFilter(setName: hostileSet)).first)
        let delete = try work.ingest(["delete", hostile.id])
        XCTAssertEqual(delete.status, 0, delete.stderr)
        assertNoControls(delete.stdout + delete.stderr, "delete")
        let edits = try work.ingest(["undo", "--list"])
        assertNoControls(edits.stdout + edits.stderr, "undo --list")
    }

    func testCSVExport_neutralisesFormulaCells_andRawCellsKeepsThem() throws {
        let work = try ingestedHostileNames()
        let cells = try work.exportedRows().map { $0["set_name"] ?? "" }
        XCTAssertTrue(cells.contains("'" + formulaSet), "\(cells)")
        XCTAssertFalse(cells.contains(formulaSet), "\(cells)")
        XCTAssertTrue(try work.exportedRows(["--raw-cells"]).contains { $0["set_name"] == formulaSet })
    }
}
