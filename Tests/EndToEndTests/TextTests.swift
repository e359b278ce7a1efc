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

        // The product without barcode is named from its front (SEA SALT CHIPS) and its US table read
        // (samples/expected.json has what the photos print).
        let nameless = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "no-barcode")).first)
        let package = try XCTUnwrap(try work.json(["show", nameless.id, "--json"]) as? [String: Any])
        XCTAssertEqual(package["nameFromPackage"] as? String, "SEA SALT CHIPS")
        let label = try XCTUnwrap(package["labelNutrition"] as? [String: Double], "\(package)")
        XCTAssertEqual(label["energyKcal"], 450)
        XCTAssertEqual(label["fat"], 17.4)
        XCTAssertEqual(label["protein"], 15.5)
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(search: "chips")).map(\.id), [nameless.id])

        let again = try work.ingest(["text"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("text read on 0 photos"), "nothing is read twice: \(again.stdout)")
    }

    func testText_hardPhotos_eachIsReadOrGivenUpWithinTextSeconds_andTheRunFinishes() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on", "textSeconds": 4])
        try IngestHarness.shell("rm -rf inbox/* && mkdir inbox/hard", in: work.folder)
        // A 48 MP page of small print, a 12 MP page of it, and a photo without any text.
        _ = try runPython("""
            import sys, random
            from PIL import Image, ImageDraw, ImageFont
            rng = random.Random(7)
            words = ["sugar", "flour", "salt", "palm", "oil", "emulsifier", "lecithin", "may", "contain", "nuts", "milk"]
            for name, (w, h) in [("page48.jpg", (8000, 6000)), ("page12.jpg", (4000, 3000))]:
                img = Image.new("RGB", (w, h), (248, 246, 240))
                draw = ImageDraw.Draw(img)
                font = ImageFont.load_default(size=14)
                for y in range(10, h - 20, 17):
                    draw.text((10, y), " ".join(rng.choice(words) for _ in range(w // 45)), fill=(20, 20, 20), font=font)
                img.save(sys.argv[1] + "/" + name, quality=85)
            Image.effect_noise((3000, 2000), 40).convert("RGB").save(sys.argv[1] + "/blank.jpg", quality=85)
            """, arguments: [work.inbox.appendingPathComponent("hard").path])
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status == 0 || run.status == 1, true, "\(run.stdout)\(run.stderr)")
        XCTAssertTrue(run.stdout.contains("text read on 3 photos"), run.stdout)
        XCTAssertFalse(run.stderr.contains("Tesseract") || run.stderr.contains("Leptonica"), "its messages stay in the debug log: \(run.stderr)")
        let catalogue = try work.catalogue()
        let photos = try catalogue.captures(matching: CaptureFilter(setName: "hard")).flatMap { try catalogue.photos(ofCapture: $0.id) }
        XCTAssertEqual(photos.count, 3, "every photo catalogued")
        let texts = try catalogue.texts(ofPhotos: photos.map(\.id))
        for photo in photos {
            let text = try XCTUnwrap(texts[photo.id], "\(photo.originalName) has its reading stored")
            // Tesseract looks for the deadline while it recognises, not while it lays out a page (5 s
            // of layout on the 48 MP page, 10 s on a loaded machine): its engine is killed at the
            // deadline and half a second's grace; the rest is the photo's decoding.
            XCTAssertLessThanOrEqual(text.seconds, 4 + 1.5, "\(photo.originalName): the deadline holds")
            if text.state == .givenUp {
                XCTAssertEqual(text.reason, "reading the text took over 4 s (textSeconds) and was given up", photo.originalName)
                XCTAssertTrue((run.stdout + run.stderr).contains(photo.originalPath), "a photo given up is named: \(run.stdout)")
            }
        }
        XCTAssertEqual(texts[try XCTUnwrap(photos.first { $0.originalName == "blank.jpg" }).id]?.text, "", "no text, no words")
    }

    func testText_engineCrashing_costsThePhotoItWasReading_andTheOthersAreRead() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on"])
        XCTAssertEqual(try work.ingest(["run", "--no-text"]).status, 1, "the samples' bad files are quarantined")
        let catalogue = try work.catalogue()
        let text = try BackgroundIngest(["text", "--workers", "1"], in: work.folder)
        // Each photo is stored as it is read: once one is, the engine (a child of `ingest text`)
        // is reading the next, and crashes.
        XCTAssertTrue(try IngestHarness.eventually(within: 60) {
            try catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 100).count < 17
        }, text.stderr)
        let engines = try IngestHarness.shell("pgrep -P \(text.pid)", in: work.folder)
        let engine = try XCTUnwrap(Int32(engines.trimmingCharacters(in: .whitespacesAndNewlines)), "one engine: \(engines)")
        kill(engine, SIGSEGV)
        XCTAssertEqual(text.exitStatus(within: 60), 1, "one photo given up: \(text.stdout)\(text.stderr)")
        XCTAssertTrue(text.stdout.contains("text read on 17 photos"), text.stdout)
        XCTAssertTrue(text.stdout.contains("given up 1"), text.stdout)
        XCTAssertTrue(text.stdout.contains("the text reader (Tesseract) failed: it stopped on this photo (signal 11)"), text.stdout)
        XCTAssertEqual(try catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 100), [])
        // Engines started here run in this folder (the pattern's brackets keep the shell itself out):
        // each ends as its input does, once `ingest text` has ended.
        let left = "for p in $(pgrep -f '[t]ext-engine'); do [ \"$(readlink /proc/$p/cwd)\" = \"$PWD\" ] && echo $p; done; true"
        XCTAssertTrue(try IngestHarness.eventually(within: 5) { try IngestHarness.shell(left, in: work.folder).isEmpty },
                      "no engine outlives its ingest")
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
        // Both photos of the set are read after it is committed, each stored as it is read.
        XCTAssertTrue(IngestHarness.eventually(within: 60) {
            (try? catalogue.captures(matching: CaptureFilter(search: "crunchy")).count) == 1
                && (try? catalogue.photosWithoutText(languages: "eng+fra+deu", redo: false, after: nil, limit: 9))?.isEmpty == true
        }, "the set's text is read after it is committed: \(watch.stderr)")
        let niceness = try IngestHarness.shell("ps -o ni= --ppid \(watch.pid)", in: work.folder)
        XCTAssertEqual(niceness.trimmingCharacters(in: .whitespacesAndNewlines), "19", "its engine reads at the lowest priority")
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 15), 0, watch.stderr)
    }

    func testConfig_languageNotInstalled_isAConfigurationErrorNamingThePackage() throws {
        let work = try SampleLibrary(for: self, settings: ["text": "on", "textLanguages": ["eng", "xyz"]])
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("tesseract-ocr-xyz"), run.stderr)
    }
}
