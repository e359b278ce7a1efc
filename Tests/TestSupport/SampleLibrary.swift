package import Catalog
package import Foundation
package import XCTest

/// A work folder for end-to-end tests of the everyday commands: samples/ as its inbox, the
/// repository's pipeline.json, and (once `ingest()` ran) a library and catalogue made from them.
package struct SampleLibrary {
    package var folder: URL

    package var library: URL { folder.appendingPathComponent("library") }
    package var inbox: URL { folder.appendingPathComponent("inbox") }
    package var quarantine: URL { folder.appendingPathComponent("quarantine") }

    /// Copies samples/ into a new temporary folder (removed when `test` ends), with file times set to now.
    package init(for test: XCTestCase, settings: [String: Any] = [:]) throws {
        try self.init(in: try TemporaryFolder.make("samples"), settings: settings)
        let folder = self.folder
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    }

    /// A copy of `template` (the folder of a work folder made by this type, its library filled or
    /// not) in a new temporary folder removed when `test` ends: one `ingest run` for many tests.
    package init(copying template: URL, for test: XCTestCase) throws {
        folder = try TemporaryFolder.make("samples")
        let folder = self.folder
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try IngestHarness.shell("cp -a '\(template.path)'/. .", in: folder)
    }

    /// As `init(for:settings:)`, in `folder`, which the caller removes.
    package init(in folder: URL, settings: [String: Any] = [:]) throws {
        self.folder = folder
        let samples = IngestHarness.packageRoot.appendingPathComponent("samples").path
        try IngestHarness.shell(
            "mkdir inbox && for s in '\(samples)'/*/; do cp -a \"$s\" inbox/; done && find inbox -type f -exec touch {} +",
            in: folder)
        var config: [String: Any] = ["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                     "quarantine": "quarantine"]
        config.merge(settings) { _, new in new }
        try IngestHarness.writeConfig(config, in: folder)
    }

    /// Writes `text` as the `capture.json` of the inbox set `set`.
    package func writeSidecar(_ text: String, set: String) throws {
        try Data(text.utf8).write(to: inbox.appendingPathComponent("\(set)/capture.json"))
    }

    /// Runs `ingest` with `arguments` in the work folder.
    @discardableResult
    package func ingest(_ arguments: [String]) throws -> IngestHarness.Outcome {
        try IngestHarness.ingest(arguments, in: folder)
    }

    /// `ingest run --quiet`, which quarantines the three bad sample files and so exits 1.
    package func run() throws {
        let run = try ingest(["run", "--quiet"])
        XCTAssertEqual(run.status, 1, "the samples' bad files are quarantined: \(run.stdout)\(run.stderr)")
    }

    package func catalogue() throws -> Catalogue {
        try IngestHarness.catalogue(at: library.appendingPathComponent("catalog.sqlite"))
    }

    /// Every file below the library, relative to it, without the catalogue's files and the lock.
    package func libraryFiles() -> [String] {
        IngestHarness.files(under: library).filter { !$0.hasPrefix("catalog.sqlite") && $0 != ".lock" }
    }

    /// `ingest export --csv -` parsed by Python's csv module: one dictionary per row.
    package func exportedRows(_ arguments: [String] = []) throws -> [[String: String]] {
        let json = try IngestHarness.shell(
            "'\(IngestHarness.binary.path)' export --csv - \(arguments.joined(separator: " ")) "
                + "| python3 -c 'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'",
            in: folder)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]])
    }

    /// The JSON an `ingest … --json` command printed.
    package func json(_ arguments: [String]) throws -> Any {
        let outcome = try ingest(arguments)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    }
}
