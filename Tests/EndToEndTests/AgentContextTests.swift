import Catalog
import Foundation
import TestSupport
import XCTest

/// `capture.json` sidecars end to end: stored on every capture of their set, kept in the library,
/// found by `list --agent` and exported; bad ones reported without stopping the set.
final class AgentContextTests: XCTestCase {
    private let chef = #"{"agentId": "chef-1", "agentName": "Practical Chef", "requestId": "r-42", "note": "aisle 4"}"#

    func testRun_setWithSidecar_storesContextOnEveryCaptureAndKeepsSidecarWithOriginals() throws {
        let work = try SampleLibrary(for: self)
        try work.writeSidecar(chef, set: "shelf-dump")
        try work.run()

        let catalogue = try work.catalogue()
        let shelf = try catalogue.captures(matching: CaptureFilter(setName: "shelf-dump"))
        XCTAssertEqual(shelf.count, 3, "shelf-dump holds three products")
        for capture in shelf {
            XCTAssertEqual(capture.agentId, "chef-1")
            XCTAssertEqual(capture.agentName, "Practical Chef")
            XCTAssertEqual(capture.requestId, "r-42")
            XCTAssertEqual(capture.note, "aisle 4")
            XCTAssertEqual(capture.contextPath, "originals/shelf-dump/capture.json")
        }
        let others = try catalogue.captures().filter { $0.setName != "shelf-dump" }
        XCTAssertTrue(others.allSatisfy { $0.agentId == nil && $0.contextPath == nil }, "only its own set gets the context")
        XCTAssertEqual(try catalogue.agents()["chef-1"]?.name, "Practical Chef")

        let kept = work.library.appendingPathComponent("originals/shelf-dump/capture.json")
        XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), chef, "the sidecar moves next to the originals")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.inbox.appendingPathComponent("shelf-dump").path),
                       "the set folder empties")
        XCTAssertFalse(IngestHarness.files(under: work.quarantine).contains { $0.hasSuffix("capture.json") })

        let listed = try XCTUnwrap(try work.json(["list", "--agent", "chef-1", "--json"]) as? [[String: Any]])
        XCTAssertEqual(Set(listed.compactMap { $0["id"] as? String }), Set(shelf.map(\.id)))
        let byName = try XCTUnwrap(try work.json(["list", "--agent", "PRACTICAL", "--json"]) as? [[String: Any]])
        XCTAssertEqual(byName.count, 3, "a case-insensitive part of the name finds the agent")
        XCTAssertEqual(byName.first?["agentName"] as? String, "Practical Chef")
        XCTAssertEqual(try work.ingest(["list", "--agent", "chef"]).stdout.split(separator: "\n").count, 4,
                       "the table: a header and the three captures")

        let rows = try work.exportedRows()
        XCTAssertEqual(rows.count, 7)
        for row in rows {
            let isShelf = row["set_name"] == "shelf-dump"
            XCTAssertEqual(row["agent_id"], isShelf ? "chef-1" : "", "\(row)")
            XCTAssertEqual(row["agent_name"], isShelf ? "Practical Chef" : "")
            XCTAssertEqual(row["request_id"], isShelf ? "r-42" : "")
        }
        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 0, "the kept sidecar is referenced: \(verify.stdout)")
    }

    func testRun_copyModeAndFolderGrouping_storeContextOnEveryCaptureAndLeaveSidecarInInbox() throws {
        let work = try SampleLibrary(for: self, settings: ["originals": "copy", "grouping": "folder"])
        try work.writeSidecar(chef, set: "shelf-dump")
        try work.writeSidecar(#"{"agentId": "baker"}"#, set: "single-product")
        try work.run()

        let catalogue = try work.catalogue()
        XCTAssertEqual(try catalogue.captures(matching: CaptureFilter(agent: "chef-1")).map(\.setName), ["shelf-dump"])
        let baker = try catalogue.captures(matching: CaptureFilter(agent: "baker"))
        XCTAssertEqual(baker.map(\.setName), ["single-product"])
        XCTAssertNil(baker.first?.agentName, "no name was given")
        XCTAssertEqual(try catalogue.agents()["baker"]?.name, "baker", "the agent table falls back to the id")
        for set in ["shelf-dump", "single-product"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.inbox.appendingPathComponent("\(set)/capture.json").path),
                          "copy mode leaves the inbox as it was")
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.library.appendingPathComponent("originals/\(set)/capture.json").path))
        }

        let second = try work.ingest(["run"])
        XCTAssertTrue(second.stdout.contains("captures 0,"), "the sidecar is no photo to ingest again: \(second.stdout)")
        XCTAssertFalse(second.stdout.contains("capture.json"), second.stdout)
    }

    func testRun_malformedSidecars_areReportedByKeyAndTheirSetsIngestedWithoutContext() throws {
        let work = try SampleLibrary(for: self)
        let bad = [
            "shelf-dump": (#"{"agentId": 7}"#, "agentId: must be a string"),
            "single-product": (#"{"agentId": "chef", "agent": "x"}"#, "agent: unknown key"),
            "no-barcode": (#"{"agentName": "Chef"}"#, "agentId: required"),
            "rotated-and-formats": (#"{"agentId": "chef", "note": "\#(String(repeating: "n", count: 1001))"}"#,
                                    "note: at most 1000 characters, got 1001"),
            "bad-files": (#"{"agentId": "chef""#, "must hold one JSON object"),
        ]
        for (set, sidecar) in bad { try work.writeSidecar(sidecar.0, set: set) }
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.hasPrefix("sets 5, captures 7, photos 17, duplicates 0, quarantined 3,"),
                      "every set is ingested all the same: \(run.stdout)")
        for (set, sidecar) in bad {
            XCTAssertTrue(run.stdout.contains("\(set)/capture.json: \(sidecar.1)"), "\(set) reported: \(run.stdout)")
            XCTAssertEqual(try String(contentsOf: work.inbox.appendingPathComponent("\(set)/capture.json"), encoding: .utf8),
                           sidecar.0, "a bad sidecar stays where it was")
        }
        XCTAssertFalse(IngestHarness.files(under: work.quarantine).contains { $0.contains("capture.json") })
        XCTAssertTrue(try work.catalogue().captures().allSatisfy { $0.agentId == nil })
        XCTAssertTrue(try work.catalogue().agents().isEmpty)
    }

    func testRun_sidecarThatIsAFolder_isReportedAsUnusable_andWhatItHoldsIsNotTakenForPhotos() throws {
        let work = try SampleLibrary(for: self)
        let folder = work.inbox.appendingPathComponent("single-product/capture.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: work.inbox.appendingPathComponent("no-barcode/IMG_0011.jpg"),
                                         to: folder.appendingPathComponent("IMG_9999.jpg"))
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.hasPrefix("sets 5, captures 7, photos 17,"), "the photo in it is not ingested: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("capture.json not used"), run.stdout)
        XCTAssertTrue(run.stdout.contains("single-product/capture.json: cannot be used: not a regular file"), run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("IMG_9999.jpg").path),
                      "left where it was")
    }

    func testExport_noteWithCommaQuoteAndNewlines_survivesPythonsCSVReader() throws {
        let work = try SampleLibrary(for: self)
        let note = "top shelf, left of the \"SALE\" sign\nsecond line\r\nthird, with ; too"
        let sidecar: [String: Any] = ["agentId": "chef, \"the\" one", "agentName": "Chef\nNewline", "requestId": "r,1", "note": note]
        try JSONSerialization.data(withJSONObject: sidecar)
            .write(to: work.inbox.appendingPathComponent("single-product/capture.json"))
        try work.run()

        let rows = try work.exportedRows()
        let row = try XCTUnwrap(rows.first { $0["set_name"] == "single-product" })
        XCTAssertEqual(row["note"], note)
        XCTAssertEqual(row["agent_id"], "chef, \"the\" one")
        XCTAssertEqual(row["agent_name"], "Chef\nNewline")
        XCTAssertEqual(row["request_id"], "r,1")
        XCTAssertEqual(rows.count, 7, "the awkward values split no row")
        XCTAssertEqual(Set(rows.map { $0["set_name"] ?? "" }),
                       ["bad-files", "no-barcode", "rotated-and-formats", "shelf-dump", "single-product"])
    }

    func testRecovery_aJournalLeftBeforeItsJoin_mergesTheSetIntoTheCaptureItNames_once() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let catalogue = try work.catalogue()
        let target = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "single-product")).first)
        let joining = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "no-barcode")).first)
        // What a run killed after its set's rows were inserted, before the join, leaves behind: its
        // journal (nothing left to place), naming the capture the set joins by a prefix of its id.
        let journal: [String: Any] = ["setName": "no-barcode", "entries": [], "asides": [],
                                      "join": ["target": String(target.id.prefix(8)), "captures": [joining.id]]]
        let folder = work.library.appendingPathComponent(".journal/killed-worker")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("no-barcode-0000000000000000.json")
        try JSONSerialization.data(withJSONObject: journal).write(to: path)

        let run = try work.ingest(["run", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path.path), "the journal is finished")
        XCTAssertEqual(try catalogue.capture(id: target.id)?.photoCount, target.photoCount + joining.photoCount)
        XCTAssertNil(try catalogue.capture(id: joining.id), "merged into the capture named")
        let merges = try catalogue.edits(limit: 10).filter { $0.kind == .merge }
        XCTAssertEqual(merges.map(\.origin), ["capture flow (set no-barcode)"])

        // The same journal again (a crash after the merge, before the journal went): nothing more.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: journal).write(to: path)
        XCTAssertEqual(try work.ingest(["run", "--quiet"]).status, 0)
        XCTAssertEqual(try catalogue.edits(limit: 10).filter { $0.kind == .merge }.count, 1, "merged once")
        XCTAssertEqual(try catalogue.capture(id: target.id)?.photoCount, target.photoCount + joining.photoCount)
    }
}
