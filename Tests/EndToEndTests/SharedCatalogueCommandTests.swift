import Catalog
import Foundation
import Logging
import TestSupport
import XCTest

/// The commands around a PostgreSQL catalogue: configuration, `ingest workers`, `ingest catalog
/// copy` both ways, `backup`, and the everyday commands on the samples.
final class SharedCatalogueCommandTests: XCTestCase {
    /// A new database of the test cluster, its URL.
    private func database() throws -> String {
        let server = try PostgresServer.shared
        let name = try server.makeDatabase()
        addTeardownBlock { try? server.dropDatabase(name) }
        return server.url(database: name)
    }

    /// The samples, ingested into a new PostgreSQL catalogue.
    private func samplesInPostgres() throws -> (work: SampleLibrary, url: String) {
        let url = try database()
        let work = try SampleLibrary(for: self, settings: ["catalog": url])
        let run = try work.ingest(["run", "--quiet"])
        XCTAssertEqual(run.status, 1, "the samples' three bad files are quarantined: \(run.stdout)\(run.stderr)")
        return (work, url)
    }

    func testEverydayCommands_onAPostgresCatalogue_workAsOnSQLite() throws {
        let (work, _) = try samplesInPostgres()
        let sqlite = try SampleLibrary(for: self)
        XCTAssertEqual(try sqlite.ingest(["run", "--quiet"]).status, 1)
        let products = IngestHarness.packageRoot.appendingPathComponent("samples/products.tsv").path
        for library in [work, sqlite] { XCTAssertEqual(try library.ingest(["products", "import", products]).status, 0) }
        XCTAssertEqual(try work.ingest(["list", "--search", "peanut", "--count"]).stdout, "1\n", "found by its product's name")
        for arguments in [["list", "--count"], ["list", "--search", "peanut", "--count"], ["list", "--no-barcode", "--count"]] {
            let postgres = try work.ingest(arguments), reference = try sqlite.ingest(arguments)
            XCTAssertEqual(postgres.stdout, reference.stdout, "\(arguments): \(postgres.stderr)")
        }
        let verify = try work.ingest(["verify"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("photos 17,"), verify.stdout)
        let exported = try work.ingest(["export", "--csv", "-"]), reference = try sqlite.ingest(["export", "--csv", "-"])
        XCTAssertEqual(Self.withoutIds(exported.stdout), Self.withoutIds(reference.stdout))
        XCTAssertEqual(exported.stdout.split(separator: "\n").count, 8, "a header and seven captures")
    }

    /// CSV lines without their first field (the capture's id, a new UUID in every run), sorted.
    private static func withoutIds(_ csv: String) -> [String] {
        csv.split(separator: "\n").map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }.sorted()
    }

    func testCatalogCopy_sqliteIntoPostgresAndBack_keepsEveryRow() throws {
        let sqlite = try SampleLibrary(for: self)
        XCTAssertEqual(try sqlite.ingest(["run", "--quiet"]).status, 1)
        let imported = try sqlite.ingest(["products", "import", IngestHarness.packageRoot.appendingPathComponent("samples/products.tsv").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // Edits go across too: a delete undone (edits that name each other, `undone_by` the later
        // one) and a delete that stands, holding its files.
        let captures = try sqlite.catalogue().captures().map(\.id).sorted()
        for arguments in [["delete", captures[0]], ["undo"], ["delete", captures[1]]] {
            let outcome = try sqlite.ingest(arguments + ["--quiet"])
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.stdout)\(outcome.stderr)")
        }
        let url = try database()
        let there = try sqlite.ingest(["catalog", "copy", "--to", url])
        XCTAssertEqual(there.status, 0, there.stdout + there.stderr)
        XCTAssertTrue(there.stdout.contains("row counts and checksums equal"), there.stdout)
        let back = sqlite.folder.appendingPathComponent("back.sqlite").path
        let home = try sqlite.ingest(["catalog", "copy", "--catalog", url, "--to", back])
        XCTAssertEqual(home.status, 0, home.stdout + home.stderr)

        let logger = Logger(label: "test")
        let original = try Catalogue(path: sqlite.library.appendingPathComponent("catalog.sqlite").path, create: false, logger: logger)
        let copied = try Catalogue(.postgres(url: url), create: false, logger: logger)
        let returned = try Catalogue(path: back, create: false, logger: logger)
        defer { [original, copied, returned].forEach { try? $0.close() } }
        let checksums = try original.checksums()
        XCTAssertEqual(try copied.checksums(), checksums)
        XCTAssertEqual(try returned.checksums(), checksums)
        XCTAssertEqual(checksums.first { $0.name == "product" }?.rows, 5)
        XCTAssertEqual(checksums.first { $0.name == "edit" }?.rows, 3)
        XCTAssertEqual(try returned.heldFilePaths(), try original.heldFilePaths())
        XCTAssertFalse(try original.heldFilePaths().isEmpty)
        XCTAssertEqual(try copied.edits(limit: 5), try original.edits(limit: 5))
        XCTAssertEqual(try copied.captures(), try original.captures())
        // The copy goes on numbering after the copied ids.
        let run = try copied.startRun(inbox: "/inbox", startedAt: "2026-01-01T00:00:00Z")
        XCTAssertEqual(run.id, (checksums.first { $0.name == "run" }?.rows).map { Int64($0) + 1 })
    }

    func testCatalogCopy_intoACatalogueWithRows_isRefusedAndChangesNothing() throws {
        let (work, url) = try samplesInPostgres()
        let target = work.folder.appendingPathComponent("target.sqlite").path
        XCTAssertEqual(try work.ingest(["catalog", "copy", "--to", target]).status, 0)
        let again = try work.ingest(["catalog", "copy", "--to", target])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("\(target): catalogue not copied"), again.stderr)
        XCTAssertTrue(again.stderr.contains("copy into an empty catalogue"), again.stderr)
        let catalogue = try Catalogue(path: target, create: false, logger: Logger(label: "test"))
        defer { try? catalogue.close() }
        XCTAssertEqual(try catalogue.counts().captures, 7)
        XCTAssertTrue(url.hasPrefix("postgresql://"))
    }

    func testBackup_ofAPostgresCatalogue_isASQLiteFileThatOpensAlone() throws {
        let (work, _) = try samplesInPostgres()
        let file = work.folder.appendingPathComponent("backup.sqlite").path
        let backup = try work.ingest(["backup", file])
        XCTAssertEqual(backup.status, 0, backup.stderr)
        XCTAssertTrue(backup.stdout.contains("backed up 7 captures, 17 photos"), backup.stdout)
        let catalogue = try Catalogue(path: file, create: false, logger: Logger(label: "test"))
        defer { try? catalogue.close() }
        XCTAssertEqual(try catalogue.counts().photos, 17)
    }

    func testWorkers_listsAWatchingWorkerWithItsLease_andNoneOnceItStops() throws {
        let url = try database()
        let work = try SampleLibrary(for: self, settings: ["catalog": url, "claimLeaseSeconds": 30])
        let watch = try BackgroundIngest(["watch"], in: work.folder)
        XCTAssertTrue(IngestHarness.eventually(within: 30) { watch.stderr.contains("watching the inbox") }, watch.stderr)
        let listed = try work.ingest(["workers"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let id = try XCTUnwrap(watch.stderr.range(of: "worker=").map { String(watch.stderr[$0.upperBound...].prefix { !$0.isWhitespace }) })
        XCTAssertTrue(listed.stdout.hasPrefix("\(id)  host "), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("pid \(watch.pid)"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("  lease "), listed.stdout)
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 60), 0, watch.stderr)
        XCTAssertEqual(try work.ingest(["workers"]).stdout, "no worker now\n")
    }

    func testWorkers_onSQLite_namesTheLockHolder() throws {
        let work = try SampleLibrary(for: self)
        XCTAssertEqual(try work.ingest(["run", "--quiet"]).status, 1)
        let listed = try work.ingest(["workers"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("one worker at a time"), listed.stdout)
        XCTAssertTrue(listed.stdout.hasSuffix("no worker now\n"), listed.stdout)
    }

    func testConfiguration_catalogURLThatLibpqCannotRead_exits64NamingTheKey() throws {
        let work = try SampleLibrary(for: self, settings: ["catalog": "postgresql://db/cat?nonsense=1"])
        let run = try work.ingest(["run"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("pipeline.json: catalog is not a PostgreSQL URL"), run.stderr)
        XCTAssertEqual(IngestHarness.files(under: work.folder).filter { $0.hasPrefix("library/") }, [], "nothing made")
    }

    func testCatalogueURL_fromTheEnvironment_keepsThePasswordOutOfMessages() throws {
        let server = try PostgresServer.shared
        let work = try SampleLibrary(for: self)
        let url = "postgresql://\(server.user):s3cret@/no_such_database?host=\(server.folder)&port=\(server.port)"
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["INGEST_CATALOG_URL=\(url)", IngestHarness.binary.path, "run"], in: work.folder)
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("no_such_database"), outcome.stderr)
        XCTAssertFalse((outcome.stdout + outcome.stderr).contains("s3cret"), outcome.stderr)
    }
}
