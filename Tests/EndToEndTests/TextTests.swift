import Catalog
import Foundation
import TestSupport
import XCTest

/// The words on the photos, read by `ingest run` after its sets and by `ingest text`: stored,
/// searched and shown; a photo that cannot be read given up once, with its reason.
final class TextTests: XCTestCase {
    func testRun_readsTheTextAfterItsSets_andSearchAndShowFindIt() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on"])
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 1, "the samples' bad files are quarantined: \(run.stderr)")
        XCTAssertTrue(run.stdout.contains("text read on 17 photos"), run.stdout)
        XCTAssertTrue(run.stdout.contains("given up 0"), run.stdout)

        // samples/bad-files/IMG_0016.jpg and shelf-dump's IMG_0009.jpg say CRUNCHY OATS.
        let catalogue = try work.catalogue()
        let found = try catalogue.captures(matching: CaptureFilter(search: "crunchy"))
        XCTAssertEqual(Set(found.map(\.setName)), ["bad-files", "shelf-dump"])
        let shown = try XCTUnwrap(try work.json(["show", found[0].id, "--json"]) as? [String: Any])
        let texts = try XCTUnwrap(shown["photos"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        XCTAssertTrue(texts.contains("CRUNCHY OATS"), "\(texts)")
        let list = try work.ingest(["list", "--search", "OATS"])
        XCTAssertTrue(list.stdout.contains(String(found[0].id.prefix(8))), list.stdout)
        let described = try work.ingest(["show", found[0].id])
        XCTAssertTrue(described.stdout.contains("text       CRUNCHY OATS"), described.stdout)

        let again = try work.ingest(["text"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("text read on 0 photos"), "nothing is read twice: \(again.stdout)")
    }

    func testText_catchesUp_andGivesUpOnAPhotoItCannotReadOnce() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on"])
        let run = try work.ingest(["run", "--no-text"])
        XCTAssertFalse(run.stdout.contains("text read"), run.stdout)
        let catalogue = try work.catalogue()
        let photos = try catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 100)
        XCTAssertEqual(photos.count, 17, "none read yet")
        let gone = photos[3].originalPath
        try FileManager.default.removeItem(at: work.library.appendingPathComponent(gone))

        let text = try work.ingest(["text", "--workers", "2"])
        XCTAssertEqual(text.status, 1, "a photo given up: \(text.stdout)\(text.stderr)")
        XCTAssertTrue(text.stdout.contains("\(gone): "), text.stdout)
        XCTAssertTrue(text.stdout.contains("text read on 17 photos"), text.stdout)
        XCTAssertTrue(text.stdout.contains("given up 1"), text.stdout)
        XCTAssertEqual(try catalogue.texts(ofPhotos: [photos[3].id])[photos[3].id]?.state, .givenUp)

        let again = try work.ingest(["text"])
        XCTAssertEqual(again.status, 0, "given up once, not tried again: \(again.stdout)")
        XCTAssertTrue(again.stdout.hasPrefix("text read on 0 photos"), again.stdout)
    }

    func testWatch_readsTheTextOfEachSetInTheBackground_andStopsOnSIGTERM() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on", "settleSeconds": 1])
        // Only one set, so that the watch has something to read: the others wait outside.
        let aside = work.folder.appendingPathComponent("aside")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        for set in try FileManager.default.contentsOfDirectory(atPath: work.inbox.path) where set != "bad-files" {
            try FileManager.default.moveItem(at: work.inbox.appendingPathComponent(set), to: aside.appendingPathComponent(set))
        }
        let watch = try BackgroundIngest(["watch"], in: work.folder)
        XCTAssertTrue(IngestHarness.eventually(within: 10) { watch.stderr.contains("watching the inbox") }, watch.stderr)
        let catalogue = try work.catalogue()
        XCTAssertTrue(IngestHarness.eventually(within: 60) {
            (try? catalogue.captures(matching: CaptureFilter(search: "crunchy")).count) == 1
        }, "the set's text is read after it is committed: \(watch.stderr)")
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 15), 0, watch.stderr)
        XCTAssertEqual(try catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 9), [],
                       "both photos of the set read")
    }

    func testConfig_languageNotInstalled_isAConfigurationErrorNamingThePackage() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on", "textLanguages": ["eng", "xyz"]])
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("tesseract-ocr-xyz"), run.stderr)
    }
}
