import Catalog
import Foundation
import TestSupport
import Vocabulary
import XCTest

/// `ingest list`, `show` and `delete` on the ingested samples.
final class ListShowDeleteTests: XCTestCase {
    private func ingestedSamples() throws -> SampleLibrary {
        let work = try SampleLibrary(for: self)
        try work.run()
        return work
    }

    /// The ids `list … --json` prints, in its order.
    private func listedIds(_ work: SampleLibrary, _ arguments: [String]) throws -> [String] {
        let listed = try XCTUnwrap(try work.json(["list", "--json"] + arguments) as? [[String: Any]])
        return listed.compactMap { $0["id"] as? String }
    }

    func testList_eachFilter_selectsWhatTheCatalogueHolds() throws {
        let work = try ingestedSamples()
        let all = try work.catalogue().captures()
        XCTAssertEqual(all.count, 7)
        XCTAssertEqual(try listedIds(work, []), all.map(\.id), "newest first")

        XCTAssertEqual(try listedIds(work, ["--barcode", "0383935678262"]).count, 1, "by GTIN-13")
        XCTAssertEqual(try listedIds(work, ["--barcode", "383935678262"]).count, 1, "by the code as read")
        XCTAssertEqual(try listedIds(work, ["--no-barcode"]), all.filter { $0.barcode == nil }.map(\.id))
        XCTAssertEqual(try listedIds(work, ["--set", "shelf-dump"]).count, 3)
        XCTAssertEqual(try listedIds(work, ["--rating", "excellent"]), all.filter { $0.rating == .excellent }.map(\.id))
        XCTAssertEqual(try listedIds(work, ["--rating", "Poor"]), all.filter { $0.rating == .poor }.map(\.id))

        let middle = all[3]
        XCTAssertEqual(try listedIds(work, ["--since", middle.capturedAt]), all.prefix(4).map(\.id),
                       "--since \(middle.capturedAt) includes that capture")
        XCTAssertEqual(try listedIds(work, ["--until", middle.capturedAt]), all.suffix(3).map(\.id),
                       "--until a time excludes it")
        let day = String(middle.capturedAt.prefix(10))
        let dayStart = try XCTUnwrap(ISO8601DateFormatter().date(from: day + "T00:00:00Z")).timeIntervalSince1970
        XCTAssertEqual(try listedIds(work, ["--since", day]), all.filter { $0.capturedUTC >= dayStart }.map(\.id))
        XCTAssertEqual(try listedIds(work, ["--until", day]), all.filter { $0.capturedUTC < dayStart + 86_400 }.map(\.id),
                       "--until a day includes the whole day")
        XCTAssertEqual(try listedIds(work, ["--set", "shelf-dump", "--no-barcode"]), [], "filters combine")
    }

    func testList_json_hasEveryDocumentedFieldForEveryCapture() throws {
        let work = try ingestedSamples()
        let listed = try XCTUnwrap(try work.json(["list", "--json", "--set", "no-barcode"]) as? [[String: Any]])
        let capture = try XCTUnwrap(listed.first)
        XCTAssertEqual(Set(capture.keys), [
            "id", "setName", "capturedAt", "timeSource", "barcode", "symbology", "gtin13", "addon", "otherCodes", "photoCount", "quality",
            "rating", "agentId", "agentName", "agentNameAtCapture", "requestId", "note", "createdAt", "product",
            "nameFromPackage", "labelNutrition",
        ])
        XCTAssertTrue(capture["barcode"] is NSNull, "absent values are null, never left out")
        XCTAssertEqual(capture["photoCount"] as? Int, 2)
    }

    func testList_table_alignsOneRowPerCaptureUnderAHeader() throws {
        let work = try ingestedSamples()
        let ids = try work.catalogue().captures().map(\.id)
        let list = try work.ingest(["list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 8)
        let header = Array(lines[0])
        let columns = ["CAPTURED", "SET", "BARCODE", "PHOTOS", "RATING", "AGENT"]
        let starts = try columns.map { try XCTUnwrap(lines[0].range(of: $0)).lowerBound.utf16Offset(in: lines[0]) }
        XCTAssertTrue(header.allSatisfy(\.isASCII))
        for (line, id) in zip(lines.dropFirst(), ids) {
            XCTAssertTrue(line.hasPrefix(String(id.prefix(8)) + " "), "\(line) starts with the short id of \(id)")
            let row = Array(line)
            for start in starts {
                XCTAssertTrue(row[start - 1] == " " && row[start] != " ", "every cell starts under its header: \(line)")
            }
        }
        XCTAssertEqual(try work.ingest(["list", "--set", "nothing-here"]).stdout, "no captures\n")
        XCTAssertEqual(try work.ingest(["list", "--barcode", "1", "--no-barcode"]).status, 64)
        XCTAssertEqual(try work.ingest(["list", "--rating", "Great"]).status, 64)
        XCTAssertEqual(try work.ingest(["list", "--since", "2026-13-01"]).status, 64)
    }

    func testShow_uniquePrefix_printsTheCaptureItsPhotosFilesAndBarcodes() throws {
        let work = try ingestedSamples()
        let catalogue = try work.catalogue()
        let capture = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "rotated-and-formats")).first)
        let photos = try catalogue.photos(ofCapture: capture.id)

        let show = try work.ingest(["show", String(capture.id.prefix(6))])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("capture   \(capture.id)"), show.stdout)
        XCTAssertTrue(show.stdout.contains("\(capture.capturedAt) (EXIF, offset known)"), show.stdout)
        XCTAssertTrue(show.stdout.contains("barcode   383935678262 (UPC-A, GTIN-13 0383935678262)"), show.stdout)
        for photo in photos {
            XCTAssertTrue(show.stdout.contains(work.library.appendingPathComponent(photo.originalPath).path), photo.originalPath)
            XCTAssertTrue(show.stdout.contains(work.library.appendingPathComponent(photo.thumbPath).path), photo.thumbPath)
        }
        XCTAssertTrue(show.stdout.contains("barcode    UPC-A 383935678262"), show.stdout)

        let json = try XCTUnwrap(try work.json(["show", capture.id, "--json"]) as? [String: Any])
        XCTAssertEqual(json["id"] as? String, capture.id)
        let shown = try XCTUnwrap(json["photos"] as? [[String: Any]])
        XCTAssertEqual(shown.compactMap { $0["originalPath"] as? String }, photos.map(\.originalPath))
        XCTAssertEqual(shown.compactMap { $0["thumbWidth"] as? Int }, photos.map(\.thumbWidth))
        let hits = shown.flatMap { $0["barcodes"] as? [[String: Any]] ?? [] }
        XCTAssertEqual(hits.compactMap { $0["gtin13"] as? String }, ["0383935678262"])
        XCTAssertNotNil(shown.first?["sharpness"] as? Double)
    }

    func testShow_unknownOrAmbiguousPrefix_exits1Saying() throws {
        let work = try ingestedSamples()
        let unknown = try work.ingest(["show", "zzzz"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no capture id starts with 'zzzz'"), unknown.stderr)
        XCTAssertEqual(try work.ingest(["delete", "zzzz"]).status, 1)
        XCTAssertEqual(try work.catalogue().counts().captures, 7)
    }

    func testShowDeleteAndBefore_idShorterThanFour_isAUsageErrorAndDeletesNothing() throws {
        // `delete ''` used to match every id (LIKE '%') and delete the only capture there was.
        let work = try ingestedSamples()
        for arguments in [["delete", ""], ["delete", "a"], ["show", ""], ["show", "abc"], ["list", "--before", ""]] {
            let outcome = try work.ingest(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains("must be at least 4 characters"), outcome.stderr)
        }
        XCTAssertEqual(try work.catalogue().counts().captures, 7)
    }

    func testDelete_capture_removesItsRowsKeepsItsFilesForUndo_andPurgeRemovesExactlyThem() throws {
        let work = try ingestedSamples()
        let catalogue = try work.catalogue()
        let victim = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "single-product")).first)
        let files = try catalogue.photos(ofCapture: victim.id).flatMap { [$0.originalPath, $0.thumbPath] }
        let before = work.libraryFiles()
        let counts = try catalogue.counts()

        let delete = try work.ingest(["delete", String(victim.id.prefix(8))])
        XCTAssertEqual(delete.status, 0, delete.stderr)
        XCTAssertTrue(delete.stdout.contains("deleted capture \(victim.id.prefix(8)) of set single-product"), delete.stdout)
        XCTAssertNil(try catalogue.capture(idPrefix: victim.id))
        XCTAssertEqual(try catalogue.photos(ofCapture: victim.id), [])
        let after = try catalogue.counts()
        XCTAssertEqual(after.captures, counts.captures - 1)
        XCTAssertEqual(after.photos, counts.photos - 3)
        XCTAssertLessThan(after.hits, counts.hits)
        XCTAssertEqual(work.libraryFiles(), before, "the files stay until ingest purge")
        XCTAssertEqual(try work.ingest(["verify"]).status, 0, "files held for an undo are the catalogue's")

        let purge = try work.ingest(["purge"])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stdout.contains("purged 6 files"), purge.stdout)
        XCTAssertEqual(work.libraryFiles(), before.filter { !files.contains($0) }, "exactly its six files are gone")
        XCTAssertEqual(try work.ingest(["verify"]).status, 0)
        let undo = try work.ingest(["undo"])
        XCTAssertEqual(undo.status, 1)
        XCTAssertTrue(undo.stderr.contains("ingest purge removed the files"), undo.stderr)
    }

    func testPurge_interruptedAfterTheCatalogueLetTheFilesGo_leavesFilesThatVerifyRepairSetsAside() throws {
        let work = try ingestedSamples()
        let catalogue = try work.catalogue()
        let victim = try XCTUnwrap(try catalogue.captures(matching: CaptureFilter(setName: "no-barcode")).first)
        let orphans = try catalogue.photos(ofCapture: victim.id).flatMap { [$0.originalPath, $0.thumbPath] }.sorted()
        XCTAssertEqual(try work.ingest(["delete", victim.id]).status, 0)
        // The first step of `ingest purge` alone: what a crash right after its transaction leaves.
        XCTAssertEqual(try catalogue.releaseHeldFiles(madeBefore: nil, purgedAt: "2026-11-24T00:00:00Z").sorted(), orphans)

        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 1)
        for orphan in orphans { XCTAssertTrue(verify.stdout.contains("unreferenced file     \(orphan)"), verify.stdout) }
        XCTAssertEqual(try work.ingest(["verify", "--repair"]).status, 0)
        for orphan in orphans {
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.library.appendingPathComponent(orphan).path))
            XCTAssertTrue(FileManager.default.fileExists(
                atPath: work.quarantine.appendingPathComponent("unreferenced/\(orphan)").path), "\(orphan) set aside")
        }
        XCTAssertEqual(try work.ingest(["verify"]).status, 0)
    }
}

/// The commands that change the library take its lock before they open the catalogue, as `run` does.
final class LockOrderTests: XCTestCase {
    func testVerifyThumbnailsPurge_whileAnotherHoldsTheLibrary_exit75BeforeTouchingTheCatalogue() throws {
        // They used to open the catalogue first, which migrates it: a write under another's lock.
        let work = try SampleLibrary(for: self)
        try work.run()
        // The catalogue as the release before v4-agent-names (and v5-products … v11-text) left it: opening it migrates it.
        let migrations = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            if len(sys.argv) > 2:
                db.executescript("DROP TABLE photo_word; DROP TABLE photo_text; DROP TRIGGER photo_moved_search; "
                                 "DROP TRIGGER capture_inserted_search; DROP TRIGGER capture_updated_search; "
                                 "DROP TRIGGER capture_deleted_search; DROP TABLE capture_text_index; DROP TABLE capture_text; "
                                 "DROP TABLE agent_name; DROP TABLE product; DROP TABLE worker; DROP TABLE set_claim; "
                                 "DROP TABLE held_file; DROP TABLE edit_capture; "
                                 "DROP TABLE edit; DROP INDEX capture_on_photo_count_captured_utc_id; "
                                 "DROP INDEX photo_on_capture_id_file_time; "
                                 "ALTER TABLE capture DROP COLUMN addon; ALTER TABLE barcode_hit DROP COLUMN addon; "
                                 "DELETE FROM grdb_migrations "
                                 "WHERE identifier IN ('v4-agent-names', 'v5-products', 'v6-workers', 'v7-edits', 'v8-search', "
                                 "'v9-search-sql-fold', 'v10-addons', 'v11-text', 'v12-label-check');")
                db.commit()
            print(",".join(r[0] for r in db.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")))
            """
        try migrations.write(to: work.folder.appendingPathComponent("migrations.py"), atomically: true, encoding: .utf8)
        let catalogue = work.library.appendingPathComponent("catalog.sqlite").path
        let before = try IngestHarness.shell("python3 migrations.py '\(catalogue)' downgrade", in: work.folder)
        XCTAssertEqual(before, "v1,v2-agents,v3-scale\n")
        for arguments in [["verify"], ["thumbnails", "--missing"], ["purge"]] {
            let command = ([IngestHarness.binary.path] + arguments + ["--config", "pipeline.json"]).map { "'\($0)'" }
                .joined(separator: ", ")
            let status = try IngestHarness.shell("""
                python3 -c "import fcntl, subprocess; lock = open('library/.lock', 'a'); fcntl.flock(lock, fcntl.LOCK_EX); \
                print(subprocess.run([\(command)], stderr=subprocess.DEVNULL).returncode)"
                """, in: work.folder)
            XCTAssertEqual(status, "75\n", "\(arguments)")
            XCTAssertEqual(try IngestHarness.shell("python3 migrations.py '\(catalogue)'", in: work.folder),
                           before, "\(arguments) migrated the catalogue under another's lock")
        }
    }
}
