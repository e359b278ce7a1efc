import Foundation
import TestSupport
import XCTest
import Catalog

/// `ingest explain`: every read of a photo and what became of it, agreeing with what a run reads.
final class ExplainTests: XCTestCase {
    private struct Explanation: Decodable {
        struct Event: Decodable {
            var step: String
            var source: String
            var code: String?
            var symbology: String?
            var lines: Int?
            var outcome: String
            var because: String?
        }

        var photo: String
        var width: Int
        var height: Int
        var overviewShrink: Int
        var events: [Event]
        var codes: [String]
        var unconfirmed: [String]
        var zxingOnWholePhoto: [String]?
    }

    private func explain(_ photos: [String], in work: SampleLibrary) throws -> [Explanation] {
        let outcome = try work.ingest(["explain", "--json"] + photos)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return try JSONDecoder().decode([Explanation].self, from: Data(outcome.stdout.utf8))
    }

    func testExplain_everySamplePhoto_givesTheCodesTheRunCatalogued() throws {
        let work = try SampleLibrary(for: self)
        let photos = try FileManager.default.subpathsOfDirectory(atPath: work.inbox.path)
            .filter { path in !path.hasPrefix("bad-files") && [".jpg", ".png", ".webp"].contains { path.hasSuffix($0) } }.sorted()
        XCTAssertEqual(photos.count, 15)
        let explanations = try explain(photos.map { "inbox/" + $0 }, in: work)
        XCTAssertEqual(explanations.map(\.photo), photos.map { "inbox/" + $0 })
        try work.run()
        let catalogue = try work.catalogue()
        let setOfCapture = Dictionary(uniqueKeysWithValues: try catalogue.captures().map { ($0.id, $0.setName) })
        let photoAt = Dictionary(uniqueKeysWithValues: try catalogue.allPhotos().map { ("\(setOfCapture[$0.captureId] ?? "?")/\($0.sourcePath)", $0) })
        var read = 0
        for (path, explanation) in zip(photos, explanations) {
            let photo = try XCTUnwrap(photoAt[path], path)
            let hits = Set(try catalogue.hits(ofPhoto: photo.id).map { $0.gtin13 ?? $0.text })
            XCTAssertTrue(Set(explanation.codes).isSubset(of: hits), "\(path): explain \(explanation.codes), the run \(hits)")
            XCTAssertTrue(hits.isSubset(of: Set(explanation.codes + explanation.unconfirmed)), "\(path): explain \(explanation.codes), the run \(hits)")
            read += explanation.codes.count
            // Each code given was read by a decoder and kept by the decision.
            for code in explanation.codes {
                XCTAssertTrue(explanation.events.contains { $0.code == code && $0.outcome == "read" }, "\(path): \(code) never read")
                XCTAssertTrue(explanation.events.contains { $0.step == "decision" && $0.code == code && $0.outcome == "kept" }, path)
            }
            XCTAssertTrue(explanation.events.allSatisfy { $0.outcome != "dropped" || $0.because?.isEmpty == false },
                          "\(path): every drop names its rule")
            // The reference read (zxing-cpp alone on the whole photo) is made for every photo.
            XCTAssertNotNil(explanation.zxingOnWholePhoto, path)
        }
        XCTAssertGreaterThanOrEqual(read, 5, "the samples' photos of barcodes")
    }

    func testExplain_listOfRuleSets_readsEachPhotoWithEach_asARunWithThatSetAloneDoes() throws {
        // How bench/fit_rules.py reads every photo with 128 combinations of thresholds: decoded
        // once, the decoders' results found again in a memo. Each set's explanation must be what
        // that set alone gives, to the byte: the strictest, the loosest and the fitted thresholds,
        // on the samples and on real photos whose reads the thresholds decide.
        let work = try SampleLibrary(for: self)
        let samples = try FileManager.default.subpathsOfDirectory(atPath: work.inbox.path)
            .filter { path in !path.hasPrefix("bad-files") && [".jpg", ".png", ".webp"].contains { path.hasSuffix($0) } }.sorted()
        let real = ["barcodes/upca-4-14.webp", "barcodes/ean13-1-36.webp", "barcodes/upca-2-11.webp", "off/2609928041263_1.jpg"]
            .map { RealPhotos.folder.appendingPathComponent($0).path }
        let photos = samples.map { "inbox/" + $0 } + real
        let sets = [
            #"{"trustedLines": 6, "confirmedLines": 20, "quietZoneNearest": 2.0, "quietZoneLines": 2, "quietZoneCrossings": 0, "contradictingShortfall": 0.15}"#,
            #"{"trustedLines": 3, "confirmedLines": 12, "quietZoneNearest": 3.0, "quietZoneLines": 3, "quietZoneCrossings": 2, "contradictingShortfall": 0.25, "quietZoneExemptLines": 20, "templateExemptLines": 20}"#,
            #"{"trustedLines": 3, "confirmedLines": 20, "quietZoneNearest": 2.0, "quietZoneLines": 2, "quietZoneCrossings": 0, "contradictingShortfall": 0.15, "quietZoneExemptLines": 20}"#,
        ]
        let list = work.folder.appendingPathComponent("rules.json")
        try Data(("[" + sets.joined(separator: ",") + "]").utf8).write(to: list)
        let together = try work.ingest(["explain", "--json", "--no-reference", "--rules", list.path] + photos)
        XCTAssertEqual(together.status, 0, together.stderr)
        let each = try JSONSerialization.jsonObject(with: Data(together.stdout.utf8)) as? [Any]
        XCTAssertEqual(each?.count, sets.count)
        for (index, rules) in sets.enumerated() {
            let file = work.folder.appendingPathComponent("rules-\(index).json")
            try Data(rules.utf8).write(to: file)
            let alone = try work.ingest(["explain", "--json", "--no-reference", "--rules", file.path] + photos)
            XCTAssertEqual(alone.status, 0, alone.stderr)
            let expected = try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [Any]
            XCTAssertEqual(expected?.count, photos.count)
            XCTAssertEqual(try JSONSerialization.data(withJSONObject: try XCTUnwrap(each?[index]), options: .sortedKeys),
                           try JSONSerialization.data(withJSONObject: try XCTUnwrap(expected), options: .sortedKeys), rules)
        }
    }

    func testExplain_referenceRead_triesTheWaysZXingCppTriesByDefault_onTheLuminance() throws {
        // An EAN-13 standing on its end on a curved bottle (../shared/realphotos/off): zxing-cpp reads
        // it with its defaults, turning the photo, on its luminance, and not on the green band the
        // overview keeps. The reference read is what a user compares with, so it reads that way.
        let work = try SampleLibrary(for: self)
        let photo = RealPhotos.folder.appendingPathComponent("off/8588005778190_2.jpg").path
        let explanation = try XCTUnwrap(try explain([photo], in: work).first)
        XCTAssertEqual(explanation.zxingOnWholePhoto, ["8588005778190"])
    }

    func testExplain_rulesFileThatHoldsNoRules_isAUsageError() throws {
        let work = try SampleLibrary(for: self)
        let photo = "inbox/single-product/IMG_0001.jpg"
        let files = ["not-rules.json": #"{"trustedLines": "many"}"#, "empty.json": "[]", "text.json": "trustedLines 3",
                     "short-entry.json": #" [{"trustedLines": 3}]"#]
        for (name, contents) in files {
            let file = work.folder.appendingPathComponent(name)
            try Data(contents.utf8).write(to: file)
            let outcome = try work.ingest(["explain", "--rules", file.path, photo])
            XCTAssertEqual(outcome.status, 64, "\(name): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("ingest: \(file.path): "), outcome.stderr)
            XCTAssertEqual(outcome.stdout, "", "no photo is explained with rules that are not there")
            if name == "short-entry.json" {
                XCTAssertTrue(outcome.stderr.contains("not a list of acceptance rules") && outcome.stderr.contains("confirmedLines"),
                              "the list's entry lacks its thresholds: \(outcome.stderr)")
            }
        }
        let missing = try work.ingest(["explain", "--rules", work.folder.appendingPathComponent("absent.json").path, photo])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot read the rules"), missing.stderr)
        let folder = try work.ingest(["explain", "--rules", work.folder.path, photo])
        XCTAssertEqual(folder.status, 64, folder.stderr)
        XCTAssertTrue(folder.stderr.hasSuffix("cannot read the rules: a directory, not a file\n"), folder.stderr)
    }

    func testExplain_text_namesEachReadAndTheOutcome_andABadFileExits1() throws {
        let work = try SampleLibrary(for: self)
        let text = try work.ingest(["explain", "inbox/single-product/IMG_0001.jpg", "inbox/bad-files/zz_truncated.jpg"])
        XCTAssertEqual(text.status, 1, "the truncated JPEG cannot be read: \(text.stderr)")
        XCTAssertTrue(text.stdout.hasPrefix("inbox/single-product/IMG_0001.jpg  "), text.stdout)
        XCTAssertTrue(text.stdout.contains("codes: 5902255046404"), text.stdout)
        XCTAssertTrue(text.stdout.contains("ZBar, the overview"), text.stdout)
        XCTAssertTrue(text.stderr.contains("zz_truncated.jpg") && text.stderr.contains("truncated or corrupt"), text.stderr)
        XCTAssertTrue(text.stderr.hasSuffix("file\n") && !text.stderr.contains("\\n"), "one line, ended by a newline: \(text.stderr)")

        // A name with a line break in it stays on its photo's first line.
        try FileManager.default.copyItem(at: work.inbox.appendingPathComponent("single-product/IMG_0001.jpg"),
                                         to: work.folder.appendingPathComponent("two\nlines.jpg"))
        let odd = try work.ingest(["explain", "--no-reference", "two\nlines.jpg"])
        XCTAssertEqual(odd.status, 0, odd.stderr)
        XCTAssertTrue(odd.stdout.hasPrefix(#"two\nlines.jpg  600×800"#), odd.stdout)
    }
}
