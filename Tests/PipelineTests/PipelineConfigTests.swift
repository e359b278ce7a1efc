import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import Vocabulary
import TestSupport
import Catalog
import SystemPackage

final class PipelineConfigTests: XCTestCase {
    private let file = "/srv/ingest/pipeline.json"

    private func parse(_ json: String) throws -> PipelineConfig {
        try PipelineConfig.parse(Data(json.utf8), file: file, folder: "/srv/ingest")
    }

    /// Asserts that `json` is refused with an error that starts with the file and then the key.
    private func assertRefused(_ json: String, key: String, mentioning detail: String? = nil,
                               line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), json, line: line) { error in
            guard let error = error as? ConfigError else { return XCTFail("not a ConfigError: \(error)", line: line) }
            XCTAssertEqual(error.file, file, line: line)
            XCTAssertTrue(error.description.hasPrefix("\(file): \(key) "), error.description, line: line)
            if let detail {
                XCTAssertTrue(error.description.contains(detail), error.description, line: line)
            }
        }
    }

    // MARK: Accepted settings

    func testParse_emptyObject_givesDefaults() throws {
        let config = try parse("{}")
        XCTAssertEqual(config.thumbnailWidth, 400)
        XCTAssertEqual(config.groupGapSeconds, 60)
        XCTAssertEqual(config.grouping, .time)
        XCTAssertEqual(config.originals, .move)
        XCTAssertEqual(config.maxPixels, 100_000_000)
        XCTAssertEqual(config.maxFileBytes, 512 * 1024 * 1024)
        XCTAssertEqual(config.workers, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertEqual(config.decodeMemoryBytes, 128 * ProcessInfo.processInfo.activeProcessorCount << 20, "128 MB per worker")
        XCTAssertEqual(config.symbologies, [.ean13, .upcA, .upcE, .ean8, .code128, .code93, .qr])
        XCTAssertEqual([config.inbox, config.library, config.quarantine], ["/srv/ingest/inbox", "/srv/ingest/library", "/srv/ingest/quarantine"])
        XCTAssertEqual(config.catalog, "/srv/ingest/library/catalog.sqlite")
        XCTAssertEqual(config, PipelineConfig(folder: "/srv/ingest"))
    }

    func testParse_everyKey_isApplied() throws {
        let config = try parse("""
            {"thumbnailWidth": 256, "groupGapSeconds": 12.5, "grouping": "folder", "originals": "copy",
             "workers": 3, "maxPixels": 5000, "maxFileBytes": 1024, "symbologies": ["ean13", "QR"], "decodeMemoryMB": 300}
            """)
        XCTAssertEqual(config.thumbnailWidth, 256)
        XCTAssertEqual(config.groupGapSeconds, 12.5)
        XCTAssertEqual(config.grouping, .folder)
        XCTAssertEqual(config.originals, .copy)
        XCTAssertEqual(config.workers, 3)
        XCTAssertEqual(config.maxPixels, 5000)
        XCTAssertEqual(config.decodeMemoryBytes, 300 << 20)
        XCTAssertEqual(config.maxFileBytes, 1024)
        XCTAssertEqual(config.symbologies, [.ean13, .qr])
    }

    func testParse_textKeys_areApplied_andALanguageNotInstalledNamesItsPackage() throws {
        XCTAssertEqual(try parse("{}").text, TextSettings(), "on, in English, French and German, 20 s a photo")
        XCTAssertTrue(try parse("{}").text.isOn)
        let config = try parse(#"{"text": "off", "textLanguages": ["fra"], "textSeconds": 5}"#)
        XCTAssertEqual(config.text.mode, .off)
        XCTAssertEqual(config.text.languages, ["fra"])
        XCTAssertEqual(config.text.seconds, 5)
        assertRefused(#"{"textLanguages": ["eng", "klingon"]}"#, key: "textLanguages", mentioning: "tesseract-ocr-klingon")
        assertRefused(#"{"textLanguages": ["../eng"]}"#, key: "textLanguages", mentioning: "not a Tesseract language")
        assertRefused(#"{"textLanguages": []}"#, key: "textLanguages", mentioning: "non-empty")
        XCTAssertNoThrow(try parse(#"{"text": "off", "textLanguages": ["klingon"]}"#), "off, no language is loaded")
        assertRefused(#"{"textSeconds": 0}"#, key: "textSeconds", mentioning: "1")
    }

    func testParse_relativePaths_resolveAgainstFolderAndAbsoluteAreKept() throws {
        let config = try parse("""
            {"inbox": "photos/in", "library": "../shared/library/", "catalog": "/var/db//catalog.sqlite",
             "quarantine": "./q"}
            """)
        XCTAssertEqual(config.inbox, "/srv/ingest/photos/in")
        XCTAssertEqual(config.library, "/srv/shared/library")
        XCTAssertEqual(config.catalog, "/var/db/catalog.sqlite")
        XCTAssertEqual(config.quarantine, "/srv/ingest/q")
    }

    func testParse_libraryWithoutCatalog_takesTheCatalogueAlong() throws {
        XCTAssertEqual(try parse(#"{"library": "/data/lib"}"#).catalog, "/data/lib/catalog.sqlite")
        var config = try parse(#"{"library": "/data/lib", "catalog": "db.sqlite"}"#)
        XCTAssertEqual(config.catalog, "/srv/ingest/db.sqlite", "a catalogue that is set stays where it is set")
        config.library = "/elsewhere"
        XCTAssertEqual(config.catalog, "/srv/ingest/db.sqlite")
    }

    func testParse_severalProblems_areAllReportedAtOnce() {
        XCTAssertThrowsError(try parse(#"{"workers": -1, "inbox": "", "zzz": 1, "readyMarker": "ready", "maxPixels": "x"}"#)) { error in
            XCTAssertEqual((error as? ConfigError)?.messages, [
                "zzz unknown key (known keys: catalog, catalogWaitSeconds, claimLeaseSeconds, decodeMemoryMB, draftIdleMinutes, groupGapSeconds, grouping, "
                    + "httpHeaderSeconds, httpIdleSeconds, httpMaxConnections, inbox, library, maxFileBytes, maxPixels, minFreeMB, "
                    + "minPixels, originals, quarantine, readyMarker, rescanSeconds, settleSeconds, symbologies, text, textLanguages, textSeconds, thumbnailWidth, "
                    + "uploadIdleSeconds, uploadMaxFileMB, uploadMaxFiles, uploadMaxRequestMB, workers)",
                "inbox must be a non-empty string",
                "workers must be 0…256, got -1",
                "maxPixels must be a number",
                "readyMarker must be a hidden file name (a dot, then no slash), got \"ready\"",
            ])
        }
    }

    func testParse_workersZero_meansActiveProcessorCount() throws {
        XCTAssertEqual(try parse(#"{"workers": 0}"#).workers, ProcessInfo.processInfo.activeProcessorCount)
    }

    func testParse_rangeLimits_areInclusive() throws {
        XCTAssertEqual(try parse(#"{"thumbnailWidth": 16}"#).thumbnailWidth, 16)
        XCTAssertEqual(try parse(#"{"thumbnailWidth": 4096}"#).thumbnailWidth, 4096)
        XCTAssertEqual(try parse(#"{"groupGapSeconds": 0}"#).groupGapSeconds, 0)
    }

    // MARK: Refused settings

    func testParse_duplicateKey_isRefusedWithItsNameAndTheLineItIsGivenAgain() {
        assertRefused("{\"workers\": 2,\n \"thumbnailWidth\": 300,\n \"workers\": 4}", key: "workers",
                      mentioning: "is given more than once (again on line 3)")
        // Written with an escape, it is the same key to the JSON parser, so the same key here.
        assertRefused(#"{"inbox": "a", "\u0069nbox": "b"}"#, key: "inbox", mentioning: "more than once")
        // A key's name as a value is no duplicate (nor in another object: `DuplicateKeys`).
        XCTAssertNoThrow(try parse(#"{"inbox": "workers", "workers": 2}"#))
    }

    func testDuplicateKeys_findKeysOnlyInTheirOwnObject() {
        let text = "{\"a\": {\"b\": 1, \"c\": [{\"b\": 2}]},\n\"b\": \"a\", \"s\": \"x:\\\"a\\\"\", \"a\": 3}"
        XCTAssertEqual(DuplicateKeys.find(in: Array(text.utf8)), [DuplicateKeys.Found(key: "a", line: 2)])
    }

    func testFolders_insideOneAnother_areProblemsNamingBothKeys() throws {
        var config = PipelineConfig(folder: "/srv/ingest")
        XCTAssertEqual(config.folderProblems, [], "the defaults lie side by side, the catalogue in the library")
        config.library = "/srv/ingest/inbox/lib"
        XCTAssertEqual(config.folderProblems.count, 2, "\(config.folderProblems)")
        XCTAssertTrue(config.folderProblems.contains { $0.hasPrefix("library (/srv/ingest/inbox/lib) lies inside inbox (/srv/ingest/inbox)") },
                      "\(config.folderProblems)")
        XCTAssertTrue(config.folderProblems.contains { $0.hasPrefix("catalog (/srv/ingest/inbox/lib/catalog.sqlite) lies inside inbox") },
                      "\(config.folderProblems)")
        config = PipelineConfig(folder: "/srv/ingest")
        config.quarantine = "/srv/ingest/inbox/q"
        XCTAssertEqual(config.folderProblems.map { $0.prefix(22) }, ["quarantine (/srv/inges"])
        XCTAssertTrue(config.folderProblems[0].contains("lies inside inbox"))
        config = PipelineConfig(folder: "/srv/ingest")
        config.inbox = "/srv/ingest/library/in"
        XCTAssertTrue(config.folderProblems.contains { $0.hasPrefix("inbox (/srv/ingest/library/in) lies inside library") })
        config = PipelineConfig(folder: "/srv/ingest")
        config.quarantine = config.inbox
        XCTAssertEqual(config.folderProblems.count, 1)
        XCTAssertTrue(config.folderProblems[0].hasPrefix("inbox and quarantine are the same folder"), config.folderProblems[0])
        config = PipelineConfig(folder: "/srv/ingest")
        config.inbox = "/srv/ingest/inboxes"
        config.quarantine = "/srv/ingest/inbox"
        XCTAssertEqual(config.folderProblems, [], "a name that only starts like another folder's lies beside it")
    }

    func testFolders_throughASymbolicLink_areFoundInsideAfterTheLinkIsResolved() throws {
        let root = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: root + "/inbox/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/lib", withDestinationPath: root + "/inbox/real")
        var config = PipelineConfig(folder: FilePath(root))
        config.library = FilePath(root + "/lib")
        config.catalog = root + "/elsewhere.sqlite"
        XCTAssertEqual(config.folderProblems.count, 1, "\(config.folderProblems)")
        XCTAssertTrue(config.folderProblems.first?.hasPrefix("library (\(root)/lib) lies inside inbox (\(root)/inbox)") ?? false,
                      "\(config.folderProblems)")
        // A folder not made yet below the link resolves as it will be.
        config.library = FilePath(root + "/elsewhere")
        config.quarantine = FilePath(root + "/lib/not-yet/q")
        XCTAssertTrue(config.folderProblems.first?.hasPrefix("quarantine (\(root)/lib/not-yet/q) lies inside inbox") ?? false,
                      "\(config.folderProblems)")
    }

    func testParse_unknownKey_isRefusedByName() {
        assertRefused(#"{"thumbnailWidht": 300}"#, key: "thumbnailWidht", mentioning: "unknown key")
    }

    func testParse_stringForNumber_isRefused() {
        assertRefused(#"{"thumbnailWidth": "big"}"#, key: "thumbnailWidth", mentioning: "must be a number")
    }

    func testParse_booleanForNumber_isRefused() {
        // true would read as 1, which is in range for these keys: only the type check can catch it.
        assertRefused(#"{"workers": true}"#, key: "workers", mentioning: "must be a number")
        assertRefused(#"{"groupGapSeconds": false}"#, key: "groupGapSeconds", mentioning: "must be a number")
    }

    func testParse_outOfRange_isRefusedWithLimitsAndValue() {
        assertRefused(#"{"thumbnailWidth": 0}"#, key: "thumbnailWidth", mentioning: "must be 16…4096, got 0")
        assertRefused(#"{"thumbnailWidth": 4097}"#, key: "thumbnailWidth", mentioning: "got 4097")
        assertRefused(#"{"groupGapSeconds": -1}"#, key: "groupGapSeconds", mentioning: "got -1")
        assertRefused(#"{"workers": 257}"#, key: "workers")
        assertRefused(#"{"maxPixels": 0}"#, key: "maxPixels")
    }

    func testParse_fractionalInteger_isRefused() {
        assertRefused(#"{"workers": 1.5}"#, key: "workers", mentioning: "whole number, got 1.5")
    }

    func testParse_unknownChoice_isRefused() {
        assertRefused(#"{"grouping": "barcode"}"#, key: "grouping", mentioning: "\"barcode\"")
        assertRefused(#"{"originals": "delete"}"#, key: "originals", mentioning: "\"delete\"")
    }

    func testParse_emptyOrNonStringPath_isRefused() {
        assertRefused(#"{"inbox": ""}"#, key: "inbox")
        assertRefused(#"{"library": 5}"#, key: "library")
    }

    func testParse_unknownSymbology_isRefusedWithItsName() {
        assertRefused(#"{"symbologies": ["ean13", "code39"]}"#, key: "symbologies:", mentioning: "\"code39\"")
    }

    func testParse_symbologiesNotAListOfStrings_isRefused() {
        assertRefused(#"{"symbologies": []}"#, key: "symbologies")
        assertRefused(#"{"symbologies": "ean13"}"#, key: "symbologies")
    }

    func testParse_invalidJSON_namesFile() {
        XCTAssertThrowsError(try parse(#"{"thumbnailWidth": 400"#)) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("\(file): not valid JSON"), "\(error)")
        }
    }

    func testParse_topLevelArray_namesFile() {
        XCTAssertThrowsError(try parse(#"[{"thumbnailWidth": 400}]"#)) { error in
            XCTAssertEqual(String(describing: error), "\(file): must hold one JSON object of settings")
        }
    }

    // MARK: Loading a file

    func testLoad_fileOnDisk_resolvesPathsAgainstItsFolder() throws {
        let folder = try makeTemporaryFolder()
        let path = try writeFile("conf/pipeline.json", in: folder, contents: #"{"inbox": "in", "thumbnailWidth": 320}"#)
        let config = try PipelineConfig.load(path: FilePath(path))
        XCTAssertEqual(config.inbox, FilePath(folder).appending("conf/in"))
        XCTAssertEqual(config.thumbnailWidth, 320)
    }

    func testLoad_missingFile_namesIt() throws {
        let path = (try makeTemporaryFolder() as NSString).appendingPathComponent("missing.json")
        XCTAssertThrowsError(try PipelineConfig.load(path: FilePath(path))) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("\(path): cannot read"), "\(error)")
        }
    }
}
