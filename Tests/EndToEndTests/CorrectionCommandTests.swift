import Catalog
import Foundation
import TestSupport
import XCTest
import Vocabulary

/// `ingest merge`, `split`, `move`, `set-barcode`, `delete` and `undo` on the ingested samples:
/// each one recorded edit, each undone, the library as `verify` expects it throughout.
final class CorrectionCommandTests: XCTestCase {
    private func ingestedSamples() throws -> SampleLibrary {
        let work = try SampleLibrary(for: self)
        try work.run()
        return work
    }

    private func layout(_ catalogue: Catalogue) throws -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: try catalogue.captures().map { ($0.id, try catalogue.photos(ofCapture: $0.id).map(\.id)) })
    }

    func testMergeSplitMoveSetBarcode_thenUndoEach_endWhereTheyStarted() throws {
        let work = try ingestedSamples()
        let catalogue = try work.catalogue()
        let before = try layout(catalogue)
        let single = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "single-product")).first)
        let lonely = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "no-barcode")).first)

        let merge = try work.ingest(["merge", String(single.id.prefix(8)), String(lonely.id.prefix(8))])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stdout.hasPrefix("edit #1: merged 2 captures into \(single.id.prefix(8)) (5 photos)"), merge.stdout)
        XCTAssertEqual(try catalogue.capture(id: single.id)?.photoCount, 5)
        XCTAssertEqual(try catalogue.capture(id: single.id)?.barcode, single.barcode)

        XCTAssertEqual(try work.ingest(["split", single.id, "--at", "4"]).status, 0)
        let parts = try catalogue.captures(matching: CaptureFilter(setName: "single-product"))
        XCTAssertEqual(parts.map(\.photoCount).sorted(), [2, 3])
        let photo = try XCTUnwrap(try catalogue.photos(ofCapture: single.id).last)
        XCTAssertEqual(try work.ingest(["move", photo.id, "--to", String(lonely.id.prefix(8))]).status, 1,
                       "merged away: no such capture")
        let other = try XCTUnwrap(parts.first { $0.id != single.id })
        XCTAssertEqual(try work.ingest(["move", String(photo.id.prefix(8)), "--to", other.id]).status, 0)
        XCTAssertEqual(try work.ingest(["set-barcode", other.id, "96385074"]).status, 0)
        XCTAssertEqual(try catalogue.capture(id: other.id)?.symbology, .ean8)

        let list = try work.ingest(["undo", "--list"])
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 4, list.stdout)
        XCTAssertTrue(list.stdout.hasPrefix("#4 "), list.stdout)
        XCTAssertEqual(try work.ingest(["undo", "1"]).status, 1, "the merged capture changed since")
        for _ in 0 ..< 4 { XCTAssertEqual(try work.ingest(["undo"]).status, 0) }
        XCTAssertEqual(try layout(catalogue), before)
        XCTAssertEqual(try work.ingest(["verify"]).status, 0)
    }

    func testRefusedCorrections_exitWithTheirReason_andChangeNothing() throws {
        let work = try ingestedSamples()
        let catalogue = try work.catalogue()
        let before = try layout(catalogue)
        let shelf = try catalogue.captures(matching: CaptureFilter(setName: "shelf-dump"))
        let coded = shelf.filter { $0.barcode != nil }
        let id = coded[0].id
        let cases: [([String], Int32, String)] = [
            (["merge", coded[0].id, coded[1].id], 1, "different barcodes"),
            (["merge", id], 64, "two captures or more"),
            (["set-barcode", id, "4006381333932"], 64, "check digit should be 1"),
            (["set-barcode", id, "4006381333931", "--none"], 64, "not both"),
            (["set-barcode", id, coded[0].barcode ?? ""], 1, "has that barcode already"),
            (["split", id, "--at", "1"], 1, "first photo"),
            (["split", id, "--at", "9"], 64, "photos 1 to"),
            (["undo"], 1, "nothing to undo"),
        ]
        for (arguments, status, words) in cases {
            let outcome = try work.ingest(arguments)
            XCTAssertEqual(outcome.status, status, "\(arguments): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try layout(catalogue), before)
    }

    func testCorrection_whileWatchHoldsTheLibrary_goesThrough() throws {
        let work = try ingestedSamples()
        let watch = try BackgroundIngest(["watch", "--config", "pipeline.json"], in: work.folder)
        defer { watch.signal(SIGTERM) }
        let deadline = Date().addingTimeInterval(20)
        while !watch.stderr.contains("watching the inbox"), Date() < deadline { usleep(50_000) }
        let id = try XCTUnwrap(try work.catalogue().captures(matching: CaptureFilter(setName: "no-barcode")).first?.id)
        let outcome = try work.ingest(["set-barcode", id, "4006381333931"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(try work.catalogue().capture(id: id)?.gtin13, "4006381333931")
    }

    func testCorrections_whileARunCommitsSets_leaveCatalogueAndLibraryConsistent() throws {
        // Corrections take no library lock (they would wait for a watch forever): each is one
        // transaction over rows the run does not touch, so run and corrections may interleave.
        let work = try ingestedSamples()
        let corpus = work.folder.appendingPathComponent("corpus")
        XCTAssertTrue(IngestHarness.generateCorpus(into: corpus, ["--sets", "10", "--seed", "9", "--width", "640", "--height", "480",
                                                                   "--no-duplicates"]), "gen_corpus.py (needs ../shared)")
        try IngestHarness.shell("mv corpus/inbox/* inbox/ && rm -r corpus", in: work.folder)
        let catalogue = try work.catalogue()
        let single = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "single-product")).first)
        let lonely = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "no-barcode")).first)
        let rotated = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "rotated-and-formats")).first)
        let before = try layout(catalogue)

        let run = try BackgroundIngest(["run", "--quiet"], in: work.folder)
        var rounds = 0
        var duringRun = 0
        repeat {
            let photo = try XCTUnwrap(try catalogue.photos(ofCapture: single.id).last)
            let corrections: [[String]] = [
                ["merge", single.id, lonely.id], ["split", single.id, "--at", "4"], ["undo"], ["undo"],
                ["set-barcode", rotated.id, "96385074"], ["move", photo.id, "--to", rotated.id], ["undo"], ["undo"],
                ["delete", lonely.id], ["undo"],
            ]
            for arguments in corrections {
                let outcome = try work.ingest(arguments)
                XCTAssertEqual(outcome.status, 0, "\(arguments) beside the run: \(outcome.stderr)")
                if run.exitStatus(within: 0) == nil { duringRun += 1 }
            }
            rounds += 1
        } while run.exitStatus(within: 0) == nil && rounds < 50
        XCTAssertTrue([0, 1].contains(run.exitStatus(within: 120)), run.stderr)
        XCTAssertGreaterThan(duringRun, 0, "corrections ran while the run committed sets")

        XCTAssertEqual(try layout(catalogue).filter { before[$0.key] != nil }, before, "every correction undone")
        XCTAssertEqual(IngestHarness.files(under: work.inbox).filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }, [],
                       "the run ingested every set")
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work.folder), [])
        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }
}
