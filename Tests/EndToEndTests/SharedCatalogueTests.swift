import Catalog
import Foundation
import Logging
import TestSupport
import XCTest

/// Workers sharing one inbox, one library and one PostgreSQL catalogue (issue 15), on a throwaway
/// cluster (`PostgresServer`): three at once on 60 generated sets, one of them killed at a seeded
/// random moment and started again, and the database restarted in the middle of a run. Whatever
/// happens, every photo is catalogued exactly once, and the captures are those one SQLite run of
/// the same inbox makes.
///
/// `INGEST_WORKERS_SEED` replays a run's kill moment (each run prints its seed).
final class SharedCatalogueTests: XCTestCase {
    /// The corpus, and what one SQLite run made of it, computed once for the class.
    nonisolated(unsafe) private static var corpus: URL?
    nonisolated(unsafe) private static var reference: (captures: [String], seconds: Double)?

    /// Seconds a claim lasts in these tests: a killed worker's sets are taken over this soon. A
    /// worker renews every third of it; with 3 s, a loaded machine (the suite runs two processes
    /// at once beside the sanitizer build) once delayed a live worker's renewals past its lease.
    private static let lease = 6.0

    override class func setUp() {
        super.setUp()
        corpus = TemporaryFolder.prepared("shared-corpus") { folder in
            IngestHarness.generateCorpus(into: folder, ["--sets", "60", "--seed", "15", "--width", "800", "--height", "600"])
        }
    }

    override class func tearDown() {
        if let corpus { try? FileManager.default.removeItem(at: corpus) }
        super.tearDown()
    }

    private func corpusFolder() throws -> URL {
        try XCTUnwrap(Self.corpus, "gen_corpus.py could not make the corpus (needs ../shared and the pip packages)")
    }

    /// A work folder with a fresh copy of the corpus inbox and a configuration whose catalogue is
    /// `catalog`, `threads` analysis threads per worker (several workers share two cores).
    private func workFolder(catalog: String, threads: Int = 1) throws -> URL {
        let work = try TemporaryFolder.make("shared")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.shell("cp -a '\(try corpusFolder().path)/inbox' inbox", in: work)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": catalog, "quarantine": "quarantine",
                                       "workers": threads, "claimLeaseSeconds": Self.lease, "catalogWaitSeconds": 30], in: work)
        return work
    }

    /// A new database on `server`, its URL.
    private func database(on server: PostgresServer) throws -> String {
        let name = try server.makeDatabase()
        addTeardownBlock { try? server.dropDatabase(name) }
        return server.url(database: name)
    }

    /// `set | barcode | photo, photo…` of every capture, sorted: what two runs of one inbox share.
    private func captures(in catalogue: Catalogue) throws -> [String] {
        try catalogue.captures().map { capture in
            let photos = try catalogue.photos(ofCapture: capture.id).map(\.sourcePath)
            return "\(capture.setName) | \(capture.barcode ?? "-") | \(photos.joined(separator: ", "))"
        }.sorted()
    }

    /// What one `ingest run` with a SQLite catalogue makes of the corpus, and how long it takes.
    private func sqliteReference() throws -> (captures: [String], seconds: Double) {
        if let reference = Self.reference { return reference }
        let work = try workFolder(catalog: "library/catalog.sqlite", threads: 2)
        let started = Date()
        let run = try IngestHarness.ingest(["run", "--quiet"], in: work)
        // 1: the corpus' non-product files are quarantined.
        XCTAssertEqual(run.status, 1, "\(run.stdout)\(run.stderr)")
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        defer { try? catalogue.close() }
        let reference = (try captures(in: catalogue), Date().timeIntervalSince(started))
        Self.reference = reference
        return reference
    }

    /// Starts `count` workers (`ingest run`) in `work`, worker `n` writing its metrics to `worker-n.prom`.
    private func startWorkers(_ count: Int, in work: URL) throws -> [BackgroundIngest] {
        try (0 ..< count).map { try BackgroundIngest(["run", "--verbose", "--metrics-file", "worker-\($0).prom"], in: work) }
    }

    /// The value of the series `series` (name and labels as the text shows them) in `worker-n.prom`.
    private func metric(_ series: String, ofWorker number: Int, in work: URL) throws -> Double? {
        let text = try String(contentsOf: work.appendingPathComponent("worker-\(number).prom"), encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Waits for `workers` to end; whether each went to the end: exit 0, or 1 for the files it
    /// quarantined, and no set failed or left for a stop.
    private func wentToTheEnd(_ workers: [BackgroundIngest]) -> [Bool] {
        workers.map { worker in
            guard let status = worker.exitStatus(within: 240) else { return false }
            return (status == 0 || status == 1) && !worker.stdout.contains("STOPPED") && worker.stdout.contains(" failed 0,")
        }
    }

    /// One line that says, for each worker, how it ended: its exit status (or signal), its summary
    /// and every log line above notice. Failure messages lead with it: a test log shows the first line.
    private func howTheyEnded(_ workers: [BackgroundIngest]) -> String {
        workers.enumerated().map { number, worker in
            let status = worker.exitStatus(within: 0).map { worker.endedBySignal ? "signal \($0)" : "exit \($0)" } ?? "still running"
            let summary = worker.stdout.split(separator: "\n").prefix(3).joined(separator: "; ")
            let problems = worker.stderr.split(separator: "\n").filter { line in
                line.hasPrefix("ingest: ") || [" warning ", " error ", " critical "].contains { line.contains($0) }
            }
            return "worker \(number): \(status), \(summary)" + (problems.isEmpty ? "" : "; " + problems.joined(separator: "; "))
        }.joined(separator: " | ")
    }

    /// What must hold once the workers are done: every photo of the corpus catalogued exactly
    /// once, the captures `reference`, the duplicate set aside, nothing left in the inbox or
    /// the journals, and `ingest verify` content.
    private func assertEverythingIngestedOnce(_ work: URL, catalogue url: String, reference: [String], _ label: String,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try ExpectedCorpus(try corpusFolder().appendingPathComponent("expected.json"))
        let catalogue = try Catalogue(.postgres(url: url), create: false, logger: Logger(label: "test"))
        defer { try? catalogue.close() }
        let photos = try catalogue.allPhotos()
        let setOfCapture = Dictionary(uniqueKeysWithValues: try catalogue.captures().map { ($0.id, $0.setName) })
        let catalogued = photos.map { "\(setOfCapture[$0.captureId] ?? "?")/\($0.sourcePath)" }
        XCTAssertEqual(catalogued.count, Set(catalogued).count, "\(label): a photo catalogued twice", file: file, line: line)
        XCTAssertEqual(Set(catalogued), Set(expected.photos.keys), "\(label): every photo catalogued", file: file, line: line)
        XCTAssertEqual(try captures(in: catalogue), reference, "\(label): the captures of one SQLite run", file: file, line: line)
        let everything = IngestHarness.files(under: work)
        for reject in expected.rejects {
            XCTAssertTrue(everything.contains("quarantine/\(reject)"), "\(label): \(reject) quarantined", file: file, line: line)
        }
        for duplicate in expected.duplicates {
            XCTAssertTrue(everything.contains("quarantine/duplicates/\(duplicate)"), "\(label): \(duplicate) set aside",
                          file: file, line: line)
        }
        XCTAssertEqual(everything.filter { $0.hasPrefix("inbox/") }, [], "\(label): left in the inbox", file: file, line: line)
        XCTAssertEqual(everything.filter { $0.hasPrefix("library/.journal/") || $0.contains(".partial-") }, [],
                       "\(label): journals or temporary files left", file: file, line: line)
        let verify = try IngestHarness.ingest(["verify"], in: work)
        XCTAssertEqual(verify.status, 0, "\(label): \(verify.stdout)\(verify.stderr)", file: file, line: line)
        XCTAssertEqual(try catalogue.workers().claims, [], "\(label): claims left", file: file, line: line)
    }

    func testThreeWorkers_sixtySets_catalogueEveryPhotoOnceAsOneSQLiteRun() throws {
        let reference = try sqliteReference()
        let url = try database(on: try PostgresServer.shared)
        let work = try workFolder(catalog: url)
        let started = Date()
        let workers = try startWorkers(3, in: work)
        XCTAssertEqual(wentToTheEnd(workers), [true, true, true], howTheyEnded(workers))
        print(String(format: "three workers: %.1f s (one SQLite run: %.1f s)", Date().timeIntervalSince(started), reference.seconds))
        // Each logs its id, and the sets were shared out.
        let committed = workers.map { $0.stderr.components(separatedBy: "set committed").count - 1 }
        XCTAssertTrue(workers.allSatisfy { $0.stderr.contains("worker started") && $0.stderr.contains("worker=") })
        XCTAssertEqual(committed.reduce(0, +), 61, "\(committed): 60 sets and the duplicate's")
        XCTAssertGreaterThan(committed.filter { $0 > 0 }.count, 1, "more than one worker committed sets: \(committed)")
        // Each worker's metrics count its own sets, and it holds no claim at its end.
        for number in 0 ..< 3 {
            XCTAssertEqual(try metric(#"ingest_sets_total{outcome="committed"}"#, ofWorker: number, in: work), Double(committed[number]))
            XCTAssertEqual(try metric("ingest_claims_held", ofWorker: number, in: work), 0)
        }
        try assertEverythingIngestedOnce(work, catalogue: url, reference: reference.captures, "three workers")
    }

    func testThreeWorkers_oneKilledAtARandomMomentAndRestarted_nothingLostOrDoubled() throws {
        let reference = try sqliteReference()
        let environment = ProcessInfo.processInfo.environment
        let seed = UInt64(environment["INGEST_WORKERS_SEED"] ?? "") ?? UInt64.random(in: 0 ... UInt64(UInt32.max))
        var random = SplitMix64(seed: seed)
        // Three workers share two cores: the run takes about as long as one SQLite run.
        let moment = reference.seconds * Double.random(in: 0.1 ..< 0.9, using: &random)
        print(String(format: "worker kill test: seed %llu, kill at %.2f s (replay: INGEST_WORKERS_SEED=%llu)", seed, moment, seed))
        let url = try database(on: try PostgresServer.shared)
        let work = try workFolder(catalog: url)
        var workers = try startWorkers(3, in: work)
        Thread.sleep(forTimeInterval: moment)
        workers[0].signal(SIGKILL)
        XCTAssertNotNil(workers[0].exitStatus(within: 10))
        let victim = try XCTUnwrap(workerId(in: workers[0].stderr), "the killed worker logged its id: \(workers[0].stderr)")
        let catalogue = try Catalogue(.postgres(url: url), create: false, logger: Logger(label: "test"))
        let orphaned = try catalogue.workers().claims.filter { $0.workerId == victim }.map(\.setName)
        try catalogue.close()
        workers.append(try BackgroundIngest(["run", "--verbose"], in: work))
        let finished = wentToTheEnd(Array(workers.dropFirst()))
        let label = "seed \(seed), killed at \(String(format: "%.2f", moment)) s holding \(orphaned)"
        XCTAssertEqual(finished, [true, true, true], "\(label): \(howTheyEnded(Array(workers.dropFirst())))")
        for set in orphaned {
            XCTAssertTrue(workers.dropFirst().contains { $0.stderr.contains("took over a set whose claim lapsed") && $0.stderr.contains("set=\(set) ") },
                          "\(label): \(set) taken over by another worker")
        }
        try assertEverythingIngestedOnce(work, catalogue: url, reference: reference.captures, label)
    }

    func testDatabaseRestartedMidRun_workersWaitAndReconnectOrStop_andNothingIsLost() throws {
        let reference = try sqliteReference()
        // A cluster of its own: a restart breaks every connection to it.
        let server = try PostgresServer(label: "restart")
        let url = try database(on: server)
        let work = try workFolder(catalog: url)
        let workers = try startWorkers(2, in: work)
        Thread.sleep(forTimeInterval: reference.seconds * 0.4)
        try server.restart()
        let first = wentToTheEnd(workers)
        let statuses = workers.map { $0.exitStatus(within: 1) }
        XCTAssertTrue(statuses.allSatisfy { $0 == 0 || $0 == 1 }, howTheyEnded(workers))
        let waited = workers.filter { $0.stderr.contains("catalogue unreachable, waiting for it") }.count
        print("database restart: workers went to the end \(first), \(waited) of 2 waited for the server")
        // A worker that stopped left its sets (and perhaps a journal) for the next run, once its claims lapse.
        if first != [true, true] {
            Thread.sleep(forTimeInterval: Self.lease + 1)
            let again = try IngestHarness.ingest(["run"], in: work)
            XCTAssertTrue([0, 1].contains(again.status) && again.stdout.contains(" failed 0,"), "\(again.stdout)\(again.stderr)")
        }
        try assertEverythingIngestedOnce(work, catalogue: url, reference: reference.captures, "database restarted")
        try server.stop()
    }

    /// The id a worker logged (`worker=host-pid-xxxx`).
    private func workerId(in log: String) -> String? {
        guard let range = log.range(of: "worker=") else { return nil }
        return String(log[range.upperBound...].prefix { !$0.isWhitespace })
    }
}
