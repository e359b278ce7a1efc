import Catalog
import Foundation
import TestSupport
import XCTest

/// `ingest watch` end to end: the built binary on a temporary inbox, with `settleSeconds` 2.
final class WatchTests: XCTestCase {
    /// `big/` (40 photos at 1008×756) and `small/` (5 photos), made once from gen_corpus.py.
    nonisolated(unsafe) private static var largeSets: URL?

    override class func setUp() {
        super.setUp()
        largeSets = TemporaryFolder.prepared("watch-corpus") { folder in
            let generator = IngestHarness.shared.appendingPathComponent("corpus/gen_corpus.py").path
            let outcome = try? IngestHarness.execute(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", "python3 '\(generator)' corpus --sets 14 --seed 2 --width 1008 --height 756 --no-duplicates >/dev/null "
                    + "&& mkdir big small && n=0 && for f in corpus/inbox/*/IMG_*.jpg; do n=$((n+1)); "
                    + "s=$(basename $(dirname $f)); if [ $n -le 40 ]; then cp $f big/${s}_$(basename $f); "
                    + "elif [ $n -le 45 ]; then cp $f small/${s}_$(basename $f); fi; done && rm -r corpus"],
                in: folder)
            return outcome?.status == 0
        }
    }

    override class func tearDown() {
        if let largeSets { try? FileManager.default.removeItem(at: largeSets) }
        super.tearDown()
    }

    private let samples = IngestHarness.packageRoot.appendingPathComponent("samples")

    /// A work folder with an empty inbox and a pipeline.json with `settleSeconds` 2 and `settings`.
    private func workFolder(_ settings: [String: Any] = [:]) throws -> URL {
        let work = try TemporaryFolder.make("watch")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try IngestHarness.writeConfig(settings.merging(["settleSeconds": 2]) { mine, _ in mine }, in: work)
        return work
    }

    /// Starts `ingest watch` in `work` and waits until it watches the inbox.
    private func startWatch(in work: URL, _ arguments: [String] = []) throws -> BackgroundIngest {
        let watch = try BackgroundIngest(["watch"] + arguments, in: work)
        XCTAssertTrue(IngestHarness.eventually(within: 10) { watch.stderr.contains("watching the inbox") }, watch.stderr)
        return watch
    }

    /// Sends SIGTERM and expects exit 0 soon after (nothing is in flight).
    private func stop(_ watch: BackgroundIngest, file: StaticString = #filePath, line: UInt = #line) {
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 10), 0, watch.stderr, file: file, line: line)
    }

    private func catalogue(_ work: URL) throws -> Catalogue {
        try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
    }

    private func photoCount(_ work: URL) throws -> Int {
        try catalogue(work).counts().photos
    }

    /// Copies the files of `source` into `inbox/<set>` in `work` (creating it).
    private func copy(_ source: URL, toSet set: String, in work: URL) throws {
        try IngestHarness.shell("mkdir -p 'inbox/\(set)' && cp '\(source.path)'/* 'inbox/\(set)/'", in: work)
    }

    private func isCommitted(_ line: Substring, set: String) -> Bool {
        line.contains("set committed") && line.contains("set=\(set) ")
    }

    private func committedLines(_ log: String, set: String) -> Int {
        log.split(separator: "\n").filter { isCommitted($0, set: set) }.count
    }

    // MARK: Acceptance

    func testWatch_setCopiedFileByFile_isIngestedOnceAndOnlyAfterTheCopySettles() throws {
        let work = try workFolder()
        let watch = try startWatch(in: work)
        let set = work.appendingPathComponent("inbox/shelf-dump")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        let sources = try FileManager.default.contentsOfDirectory(atPath: samples.appendingPathComponent("shelf-dump").path).sorted()
        XCTAssertEqual(sources.count, 7)
        var copied = Date()
        for name in sources {
            // Each file arrives in two halves, like a slow transfer; every pause is under settleSeconds.
            let bytes = try Data(contentsOf: samples.appendingPathComponent("shelf-dump/\(name)"))
            let target = set.appendingPathComponent(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: target.path, contents: nil))
            let handle = try FileHandle(forWritingTo: target)
            try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
            Thread.sleep(forTimeInterval: 0.5)
            try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
            try handle.close()
            copied = Date()
            Thread.sleep(forTimeInterval: name == sources.last ? 0.5 : 0.8)
            XCTAssertEqual(try photoCount(work), 0, "nothing may be ingested while the copy goes on (after \(name))")
            XCTAssertEqual(IngestHarness.files(under: set).count, sources.firstIndex(of: name)! + 1, "the inbox keeps every file")
        }
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 2 - Date().timeIntervalSince(copied)) { try photoCount(work) == 7 },
                      "ingested within settleSeconds + 2 s of the last write: \(watch.stderr)")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(copied), 1.9, "not before settleSeconds")
        XCTAssertTrue(IngestHarness.eventually(within: 2) { !FileManager.default.fileExists(atPath: set.path) },
                      "the set's originals moved out and its folder removed")
        Thread.sleep(forTimeInterval: 2.5)
        stop(watch)
        XCTAssertEqual(try photoCount(work), 7)
        XCTAssertEqual(committedLines(watch.stderr, set: "shelf-dump"), 1, "ingested once, logged at the default level: \(watch.stderr)")
        XCTAssertEqual(try catalogue(work).captures(matching: CaptureFilter(setName: "shelf-dump")).reduce(0) { $0 + $1.photoCount }, 7)
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [])
    }

    func testWatch_readyMarker_ingestsAtOnceThenRemovesMarkerAndFolder() throws {
        let work = try workFolder(["settleSeconds": 30])
        let watch = try startWatch(in: work)
        try copy(samples.appendingPathComponent("single-product"), toSet: "single-product", in: work)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("inbox/single-product/.ready").path, contents: nil))
        let marked = Date()
        XCTAssertTrue(try IngestHarness.eventually(within: 3) { try photoCount(work) == 3 }, watch.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(marked), 3, "well before settleSeconds (30)")
        XCTAssertTrue(IngestHarness.eventually(within: 2) {
            !FileManager.default.fileExists(atPath: work.appendingPathComponent("inbox/single-product").path)
        }, "the marker and then the empty folder are removed: \(IngestHarness.files(under: work.appendingPathComponent("inbox")))")
        stop(watch)
        XCTAssertEqual(committedLines(watch.stderr, set: "single-product"), 1, watch.stderr)
    }

    func testWatch_setsDroppedWhileStopped_areIngestedAtStartUp() throws {
        let work = try workFolder()
        try copy(samples.appendingPathComponent("single-product"), toSet: "single-product", in: work)
        try copy(samples.appendingPathComponent("no-barcode"), toSet: "no-barcode", in: work)
        let watch = try startWatch(in: work)
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 4) { try photoCount(work) == 5 }, watch.stderr)
        XCTAssertTrue(IngestHarness.eventually(within: 2) {
            IngestHarness.files(under: work.appendingPathComponent("inbox")).isEmpty
        })
        stop(watch)
        XCTAssertEqual(committedLines(watch.stderr, set: "single-product"), 1, watch.stderr)
        XCTAssertEqual(committedLines(watch.stderr, set: "no-barcode"), 1, watch.stderr)
    }

    func testWatch_sigtermDuringALargeSet_finishesItExits0AndLeavesTheRestForTheNextStart() throws {
        let sets = try XCTUnwrap(Self.largeSets, "gen_corpus.py could not make the photos (needs ../shared and the pip packages)")
        let work = try workFolder(["workers": 1])
        try copy(sets.appendingPathComponent("big"), toSet: "big", in: work)
        try copy(sets.appendingPathComponent("small"), toSet: "small", in: work)
        let watch = try startWatch(in: work, ["--verbose"])
        // "run started" comes just before the run takes its first set: signalled after "sets
        // complete" alone, a loaded machine let the stop land before the run began, which then
        // took no set and exited 0 before the second signal came.
        XCTAssertTrue(IngestHarness.eventually(within: 10) { watch.stderr.contains("run started") }, watch.stderr)
        Thread.sleep(forTimeInterval: 0.3)
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 30), 0, "exit 0 within the grace period: \(watch.stderr)")

        let lines = watch.stderr.split(separator: "\n")
        let stopping = try XCTUnwrap(lines.firstIndex { $0.contains("stopping: finishing the sets in flight") }, watch.stderr)
        let bigCommitted = try XCTUnwrap(lines.firstIndex { isCommitted($0, set: "big") }, "the set in flight is finished: \(watch.stderr)")
        XCTAssertLessThan(stopping, bigCommitted, "the signal came while the large set was in flight")
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [])
        let catalogue = try catalogue(work)
        let inbox = work.appendingPathComponent("inbox")
        for set in ["big", "small"] {
            let rows = try catalogue.captures(matching: CaptureFilter(setName: set)).reduce(0) { $0 + $1.photoCount }
            let left = IngestHarness.files(under: inbox.appendingPathComponent(set)).count
            XCTAssertTrue((rows == 0 && left == (set == "big" ? 40 : 5)) || (rows > 0 && left == 0),
                          "\(set) is either committed whole or untouched in the inbox: \(rows) rows, \(left) left")
        }
        XCTAssertEqual(IngestHarness.files(under: inbox.appendingPathComponent("small")).count, 5,
                       "the set not started stays in the inbox")

        let again = try startWatch(in: work)
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 8) { try photoCount(work) == 45 }, again.stderr)
        stop(again)
        XCTAssertEqual(IngestHarness.files(under: inbox), [])
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [])
    }

    func testWatch_secondSignal_abortsWith143AndTheNextRunRecovers() throws {
        let sets = try XCTUnwrap(Self.largeSets, "gen_corpus.py could not make the photos (needs ../shared and the pip packages)")
        let work = try workFolder(["workers": 1])
        try copy(sets.appendingPathComponent("big"), toSet: "big", in: work)
        let watch = try startWatch(in: work, ["--verbose"])
        // "run started" comes just before the run takes its first set: signalled after "sets
        // complete" alone, a loaded machine let the stop land before the run began, which then
        // took no set and exited 0 before the second signal came.
        XCTAssertTrue(IngestHarness.eventually(within: 10) { watch.stderr.contains("run started") }, watch.stderr)
        Thread.sleep(forTimeInterval: 0.2)
        watch.signal(SIGTERM)
        Thread.sleep(forTimeInterval: 0.1)
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 2), 143, watch.stderr)
        XCTAssertFalse(watch.stderr.contains("set committed"), "aborted before the set was committed: \(watch.stderr)")

        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(try photoCount(work), 40)
        XCTAssertEqual(IngestHarness.files(under: work.appendingPathComponent("inbox")), [])
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [])
    }

    func testRun_whileWatchHoldsTheLock_exits75NamingTheLockAndNothingIsIngestedTwice() throws {
        let work = try workFolder()
        let watch = try startWatch(in: work)
        try copy(samples.appendingPathComponent("single-product"), toSet: "single-product", in: work)
        let run = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(run.status, 75, run.stdout + run.stderr)
        let lockFile = work.appendingPathComponent("library/.lock").path
        XCTAssertTrue(run.stderr.contains("in use by process \(watch.pid) (lock file \(lockFile))"), run.stderr)
        XCTAssertEqual(try catalogue(work).counts().photos, 0, "the refused run ingested nothing")
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 3) { try photoCount(work) == 3 }, watch.stderr)
        stop(watch)

        let after = try IngestHarness.ingest(["run"], in: work)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.hasPrefix("sets 0,"), after.stdout)
        XCTAssertEqual(try photoCount(work), 3, "each photo catalogued once")
        XCTAssertEqual(committedLines(watch.stderr, set: "single-product"), 1, watch.stderr)
    }

    // MARK: More

    func testRunWithWait_whileWatchHoldsTheLock_runsOnceTheWatchStops() throws {
        let work = try workFolder()
        let watch = try startWatch(in: work)
        let run = try BackgroundIngest(["run", "--wait"], in: work)
        XCTAssertTrue(IngestHarness.eventually(within: 5) { run.stderr.contains("waiting for the library lock") }, run.stderr)
        XCTAssertTrue(run.stderr.contains("holder=\(watch.pid)"), run.stderr)
        XCTAssertNil(run.exitStatus(within: 0.5), "still waiting")
        stop(watch)
        XCTAssertEqual(run.exitStatus(within: 10), 0, run.stderr)
    }

    func testWatch_fileAddedToAnIngestedSet_isIngestedOnItsOwn() throws {
        let work = try workFolder()
        let watch = try startWatch(in: work)
        try copy(samples.appendingPathComponent("single-product"), toSet: "single-product", in: work)
        // A hidden file keeps the set folder after its originals have moved out.
        let folder = work.appendingPathComponent("inbox/single-product")
        try Data("x".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 3) { try photoCount(work) == 3 }, watch.stderr)
        XCTAssertTrue(IngestHarness.eventually(within: 2) { IngestHarness.files(under: folder) == [".DS_Store"] })

        try FileManager.default.copyItem(at: samples.appendingPathComponent("no-barcode/IMG_0011.jpg"),
                                         to: folder.appendingPathComponent("IMG_0011.jpg"))
        XCTAssertTrue(try IngestHarness.eventually(within: 2 + 3) { try photoCount(work) == 4 }, watch.stderr)
        stop(watch)
        XCTAssertEqual(committedLines(watch.stderr, set: "single-product"), 2, watch.stderr)
        let captures = try catalogue(work).captures(matching: CaptureFilter(setName: "single-product"))
        XCTAssertEqual(captures.reduce(0) { $0 + $1.photoCount }, 4, "the first three photos once, and the new one")
        XCTAssertEqual(IngestHarness.files(under: folder), [".DS_Store"])
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [])
    }
}
