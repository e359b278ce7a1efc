import Foundation
import TestSupport
import XCTest

/// What a new user runs into after the demo: a folder without a catalogue, a moved library, several
/// mistakes in one configuration, photos ingested twice.
final class FirstUseTests: XCTestCase {
    /// A work folder with the repository's pipeline.json and, with `set`, one sample set in its inbox.
    private func workFolder(set: String? = nil) throws -> URL {
        let work = try TemporaryFolder.make("first-use")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.copyItem(at: IngestHarness.packageRoot.appendingPathComponent("pipeline.json"),
                                         to: work.appendingPathComponent("pipeline.json"))
        if let set { try copySample(set, into: work.appendingPathComponent("inbox/\(set)")) }
        return work
    }

    private func copySample(_ set: String, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IngestHarness.packageRoot.appendingPathComponent("samples/\(set)"), to: folder)
    }

    func testReadingCommands_withoutACatalogue_exit1NamingItAndCreateNothing() throws {
        let work = try workFolder()
        let before = IngestHarness.files(under: work)
        for command in [["list"], ["list", "--json"], ["show", "abcd"], ["export", "--csv", "-"], ["verify"], ["serve"],
                        ["merge", "abcd", "efgh"], ["undo", "--list"], ["export", "--html", "site"]] {
            let outcome = try IngestHarness.ingest(command, in: work)
            XCTAssertEqual(outcome.status, 1, "\(command): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr, "ingest: no catalogue at \(work.path)/library/catalog.sqlite (in the \"library\" of "
                + "\(work.path)/pipeline.json); run ingest run first, or pass --config or --catalog\n", "\(command)")
            XCTAssertEqual(IngestHarness.files(under: work), before, "\(command) created nothing")
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("library").path), "\(command)")
        }
    }

    func testLibraryOption_movesTheCatalogueAlong() throws {
        let work = try workFolder(set: "single-product")
        let run = try IngestHarness.ingest(["run", "--library", "elsewhere/library"], in: work)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("elsewhere/library/catalog.sqlite").path))

        let list = try IngestHarness.ingest(["list", "--library", "elsewhere/library"], in: work)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("single-product"), list.stdout)
        let wrongPlace = try IngestHarness.ingest(["list"], in: work)
        XCTAssertEqual(wrongPlace.status, 1)
        XCTAssertTrue(wrongPlace.stderr.contains("no catalogue at \(work.path)/library/catalog.sqlite"), wrongPlace.stderr)
    }

    func testCatalogOption_winsOverTheLibrary() throws {
        let work = try workFolder(set: "single-product")
        XCTAssertEqual(try IngestHarness.ingest(["run", "--catalog", "db/catalog.sqlite"], in: work).status, 0)
        let list = try IngestHarness.ingest(["list", "--library", "library", "--catalog", "db/catalog.sqlite"], in: work)
        XCTAssertEqual(list.status, 0, list.stderr)
        let moved = try IngestHarness.ingest(["list", "--library", "library"], in: work)
        XCTAssertEqual(moved.status, 1, "the catalogue is not in the library: \(moved.stdout)")
        XCTAssertTrue(moved.stderr.contains("(in the library given by --library)"), moved.stderr)
    }

    func testConfiguration_threeBadValues_areReportedAtOnceOneLineEach() throws {
        let work = try workFolder()
        try Data(#"{"thumbnailWidth": 0, "grouping": "barcode", "wokers": 2}"#.utf8)
            .write(to: work.appendingPathComponent("pipeline.json"))
        let outcome = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(outcome.status, 64)
        let file = work.appendingPathComponent("pipeline.json").path
        XCTAssertEqual(outcome.stderr.split(separator: "\n"), [
            "ingest: \(file): wokers unknown key (known keys: catalog, catalogWaitSeconds, claimLeaseSeconds, decodeMemoryMB, draftIdleMinutes, groupGapSeconds, "
                + "grouping, httpHeaderSeconds, httpIdleSeconds, httpMaxConnections, inbox, library, "
                + "maxFileBytes, maxPixels, minFreeMB, minPixels, originals, quarantine, readyMarker, rescanSeconds, settleSeconds, symbologies, text, textLanguages, textSeconds, "
                + "thumbnailWidth, uploadIdleSeconds, uploadMaxFileMB, uploadMaxFiles, uploadMaxRequestMB, workers)",
            "ingest: \(file): thumbnailWidth must be 16…4096, got 0",
            "ingest: \(file): grouping unknown value \"barcode\"",
        ])
    }

    func testMissingConfiguration_saysSoPlainly() throws {
        let work = try workFolder()
        let outcome = try IngestHarness.ingest(["list", "--config", "nowhere.json"], in: work)
        XCTAssertEqual(outcome.status, 64)
        XCTAssertEqual(outcome.stderr, "ingest: \(work.path)/nowhere.json: cannot read the file (No such file or directory)\n")
    }

    func testHelp_ofEveryCommand_readsAsPlainText() throws {
        let work = try workFolder()
        let commands = ["run", "watch", "list", "show", "serve", "merge", "split", "move", "set-barcode", "delete", "undo",
                        "purge", "thumbnails", "verify", "export", "backup"]
        for command in commands {
            let outcome = try IngestHarness.ingest([command, "--help"], in: work)
            XCTAssertEqual(outcome.status, 0, command)
            XCTAssertTrue(outcome.stdout.contains("OVERVIEW:"), command)
            XCTAssertFalse(outcome.stdout.contains("\\"), "\(command) --help shows a backslash:\n\(outcome.stdout)")
        }
        let top = try IngestHarness.ingest(["--help"], in: work).stdout
        for command in commands { XCTAssertTrue(top.contains("  \(command) "), "ingest --help lists \(command)") }
    }

    func testReadme_isShort_andNamesEveryCommandAndConfigurationKey() throws {
        let readme = try String(contentsOf: IngestHarness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertLessThanOrEqual(readme.filter { $0 == "\n" }.count, 300,
                                 "README.md is for users; history belongs in CHANGELOG.md and git log")
        // `ingest --help` lists each subcommand indented by two spaces, before its summary (whose
        // next lines are indented further), and ends with "See 'ingest help …'".
        let help = try IngestHarness.ingest(["--help"], in: try workFolder()).stdout
        let commands = help.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .prefix { !$0.isEmpty }.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.first?.isLowercase == true }
        XCTAssertGreaterThan(commands.count, 15, help)
        for command in commands {
            XCTAssertTrue(readme.contains("ingest \(command)"), "README.md names no `ingest \(command)`")
        }
        // The configuration's keys, as a file with an unknown one lists them.
        let work = try workFolder()
        try Data(#"{"zz": 1}"#.utf8).write(to: work.appendingPathComponent("pipeline.json"))
        let refusal = try IngestHarness.ingest(["run"], in: work).stderr
        let keys = try XCTUnwrap(refusal.firstMatch(of: /known keys: ([a-zA-Z, ]+)\)/), refusal).output.1.split(separator: ", ")
        XCTAssertGreaterThan(keys.count, 20, refusal)
        for key in keys {
            XCTAssertTrue(readme.contains("`\(key)`") || readme.contains("\"\(key)\""), "README.md names no configuration key \(key)")
        }
    }

    func testCommandsWithoutImages_doNotLoadLibvips_runDoes() throws {
        // libvips and its hundred libraries cost ~25 ms at every start: opened on first use only.
        let work = try workFolder(set: "single-product")
        let loads = { (arguments: String) in
            try IngestHarness.shell("LD_DEBUG=files '\(IngestHarness.binary.path)' \(arguments) 2>&1 >/dev/null | grep -c 'file=libvips' || true",
                                    in: work).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertNotEqual(try loads("run --quiet"), "0", "run opens libvips")
        XCTAssertEqual(try loads("list"), "0", "list does not")
        XCTAssertEqual(try loads("export --csv out.csv --quiet"), "0", "export does not")
    }

    func testRun_photosAlreadyCatalogued_areSetAsideAsDuplicatesAndExit0() throws {
        let work = try workFolder(set: "single-product")
        XCTAssertEqual(try IngestHarness.ingest(["run"], in: work).status, 0)
        try copySample("single-product", into: work.appendingPathComponent("inbox/again"))

        let again = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(again.status, 0, "a duplicate needs nobody: its bytes are catalogued. \(again.stdout)")
        XCTAssertTrue(again.stdout.hasPrefix("sets 1, captures 0, photos 0, duplicates 3, quarantined 0,"), again.stdout)
        XCTAssertEqual(IngestHarness.files(under: work.appendingPathComponent("quarantine/duplicates/again")).filter {
            !$0.hasSuffix(".reason")
        }.count, 3)
    }
}
