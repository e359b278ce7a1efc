import Foundation
import TestSupport
import XCTest

/// `ingest export --html DIR`: the pages as files, every link relative and leading to a file.
final class HTMLExportTests: XCTestCase {
    func testExport_writesEveryCapturePageAndThumbnail_withRelativeLinksThatAllResolve() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let export = work.folder.appendingPathComponent("site")
        let outcome = try work.ingest(["export", "--html", export.path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("exported 7 captures (1 page, 17 thumbnails)"), outcome.stderr)
        let files = IngestHarness.files(under: export)
        XCTAssertEqual(files.filter { $0.hasPrefix("captures/") }.count, 7)
        XCTAssertEqual(files.filter { $0.hasPrefix("thumbs/") }.count, 17)
        for page in files where page.hasSuffix(".html") {
            let text = try String(contentsOf: export.appendingPathComponent(page), encoding: .utf8)
            XCTAssertFalse(text.contains("method=\"post\""), "\(page) offers no correction")
            let targets = text.matches(of: #/(?:href|src)="([^"#]*)"/#).map { String($0.output.1) }
            XCTAssertFalse(targets.isEmpty)
            for target in targets {
                XCTAssertFalse(target.hasPrefix("/") || target.contains("://"), "\(page): \(target) is not relative")
                let resolved = export.appendingPathComponent(page).deletingLastPathComponent().appendingPathComponent(target)
                XCTAssertTrue(FileManager.default.fileExists(atPath: resolved.standardizedFileURL.path), "\(page): \(target)")
            }
        }
        let again = try work.ingest(["export", "--html", export.path])
        XCTAssertEqual(again.status, 0, "an earlier export is written over: \(again.stderr)")
    }

    func testExport_intoAFolderWithOtherFiles_isRefusedAndTouchesNothing() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let outcome = try work.ingest(["export", "--html", work.folder.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("holds other files"), outcome.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.folder.appendingPathComponent("index.html").path))
    }
}
