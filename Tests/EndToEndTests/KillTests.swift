import Foundation
import TestSupport
import XCTest
import Catalog

/// `ingest run` killed with SIGKILL at random moments, sometimes killed again while it recovers, then
/// run to the end: whatever the moment, nothing is lost, nothing is catalogued twice, nothing stray
/// stays behind, and the result is the uninterrupted run's (docs/commit-protocol.md).
///
/// `INGEST_KILL_POINTS` sets the number of kill points (default 30, about a minute and a half on two cores).
/// The moments are drawn from a seed: half the points from a fixed one, half from a random one, both
/// printed; `INGEST_KILL_SEED` draws every point from that one instead. A seed and a number of points
/// give the same moments again, as fractions of the uninterrupted run's time (what the run is doing
/// at a moment still varies a little with the machine's timing).
final class KillTests: XCTestCase {
    /// The seed every run without `INGEST_KILL_SEED` draws half its points from.
    static let fixedSeed: UInt64 = 20_261_123

    /// A generated corpus, made once for the class; runs work on copies of its inbox.
    nonisolated(unsafe) private static var corpus: URL?

    override class func setUp() {
        super.setUp()
        // 800×600: above the size whose every photo the reader enlarges for a second look
        // (`BarcodeReader.secondLookPixels`), which would make each run five times longer
        // without reaching a state of the commit protocol these photos do not reach.
        corpus = TemporaryFolder.prepared("kill-corpus") { folder in
            IngestHarness.generateCorpus(into: folder, ["--sets", "12", "--seed", "4", "--width", "800", "--height", "600", "--bad"])
        }
    }

    override class func tearDown() {
        if let corpus { try? FileManager.default.removeItem(at: corpus) }
        super.tearDown()
    }

    func testRun_killedAtRandomMomentsAndRunAgain_endsAsTheUninterruptedRun() throws {
        let corpus = try XCTUnwrap(Self.corpus, "gen_corpus.py could not make the corpus (needs ../shared and the pip packages)")
        let expected = try ExpectedCorpus(corpus.appendingPathComponent("expected.json"))
        let environment = ProcessInfo.processInfo.environment
        let points = Int(environment["INGEST_KILL_POINTS"] ?? "") ?? 30
        let rounds: [(seed: UInt64, points: Int)] = if let seed = UInt64(environment["INGEST_KILL_SEED"] ?? "") {
            [(seed, points)]
        } else {
            [(Self.fixedSeed, points / 2), (UInt64.random(in: 0 ... UInt64(UInt32.max)), points - points / 2)]
        }
        let started = Date()
        var references: [String: (seconds: Double, state: LibraryState)] = [:]
        for originals in ["move", "copy"] {
            let work = try workFolder(corpus, originals: originals)
            let begin = Date()
            let run = try IngestHarness.ingest(["run", "--quiet"], in: work)
            references[originals] = (Date().timeIntervalSince(begin), try LibraryState(of: work))
            XCTAssertEqual(run.status, 1, "the corpus' bad files are quarantined: \(run.stdout)\(run.stderr)")
            try assertInvariants(work, expected: expected, originals: originals, "the uninterrupted run (\(originals))")
        }
        var tally = KillTally()
        var completed = 0
        for round in rounds where testRun?.failureCount ?? 0 == 0 {
            print("kill test: seed \(round.seed), \(round.points) points "
                + "(replay: INGEST_KILL_SEED=\(round.seed) INGEST_KILL_POINTS=\(round.points))")
            var random = SplitMix64(seed: round.seed)
            for point in 0 ..< round.points {
                try killAndRunAgain(point: point, of: round.points, seed: round.seed, random: &random, corpus: corpus,
                                    references: references, expected: expected, tally: &tally)
                completed += 1
                // One broken invariant floods the log at every later point; the first says enough.
                if testRun?.failureCount ?? 0 > 0 { break }
            }
        }
        print(String(format: "kill test: %d of %d points, %@; failures: %d; %.0f s", completed, points, tally.description,
                     testRun?.failureCount ?? 0, Date().timeIntervalSince(started)))
    }

    /// Kill point `point` of `count`: a run on a fresh inbox killed at a moment drawn from `random`
    /// (on every fourth point killed again while it recovers), then run to the end and checked.
    private func killAndRunAgain(point: Int, of count: Int, seed: UInt64, random: inout SplitMix64, corpus: URL,
                                 references: [String: (seconds: Double, state: LibraryState)], expected: ExpectedCorpus,
                                 tally: inout KillTally) throws {
        let originals = point % 3 == 2 ? "copy" : "move"
        let reference = try XCTUnwrap(references[originals])
        let window = reference.seconds * 1.2
        // Stratified: one moment from each of `count` equal slices of the window, so the kills
        // cover start-up, analysis, every commit and the end evenly.
        let moment = window * (Double(point) + Double.random(in: 0 ..< 1, using: &random)) / Double(count)
        let again = point % 4 == 1 ? Double.random(in: 0 ..< window, using: &random) : nil
        let work = try workFolder(corpus, originals: originals)
        defer { try? FileManager.default.removeItem(at: work) }
        tally.note(try kill(in: work, after: moment))
        var label = String(format: "seed %llu, kill point %d of %d at %.2f s of %.2f s (%@)", seed, point, count, moment,
                           reference.seconds, originals)
        if let again {
            tally.note(try kill(in: work, after: again), second: true)
            label += String(format: ", killed again at %.2f s", again)
        }
        let final = try IngestHarness.ingest(["run", "--quiet"], in: work, timeout: 120)
        XCTAssertTrue([0, 1].contains(final.status), "\(label): \(final.stdout)\(final.stderr)")
        XCTAssertFalse(final.stdout.contains("STOPPED"), "\(label): \(final.stdout)")
        XCTAssertEqual(try LibraryState(of: work), reference.state, "\(label); the last run said: \(final.stdout)\(final.stderr)")
        try assertInvariants(work, expected: expected, originals: originals, label)
    }

    /// A work folder with a fresh copy of the corpus inbox, an empty library and `workers` 2.
    private func workFolder(_ corpus: URL, originals: String) throws -> URL {
        let work = try TemporaryFolder.make("kill")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        try IngestHarness.shell("cp -a '\(corpus.path)/inbox' inbox", in: work)
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",
                                       "quarantine": "quarantine", "originals": originals, "workers": 2], in: work)
        return work
    }

    /// Starts `ingest run` in `work` and kills it with SIGKILL after `seconds`; what the kill left.
    private func kill(in work: URL, after seconds: Double) throws -> KillOutcome {
        let run = try BackgroundIngest(["run", "--quiet"], in: work)
        Thread.sleep(forTimeInterval: seconds)
        run.signal(SIGKILL)
        XCTAssertNotNil(run.exitStatus(within: 10), "a killed run ends")
        let files = IngestHarness.files(under: work)
        return KillOutcome(landed: run.endedBySignal,
                           leftJournal: files.contains { $0.hasPrefix("library/.journal/") && $0.hasSuffix(".json") },
                           leftTemporary: files.contains { $0.contains(".partial-") })
    }

    /// What must hold after any run that went to the end, killed before or not.
    private func assertInvariants(_ work: URL, expected: ExpectedCorpus, originals: String, _ label: String,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let verify = try IngestHarness.ingest(["verify"], in: work)
        XCTAssertEqual(verify.status, 0, "\(label): \(verify.stdout)", file: file, line: line)
        XCTAssertTrue(verify.stdout.contains("problems 0,"), "\(label): \(verify.stdout)", file: file, line: line)
        XCTAssertEqual(try IngestHarness.libraryProblems(in: work), [], label, file: file, line: line)
        let everything = IngestHarness.files(under: work)
        XCTAssertEqual(everything.filter { $0.contains(".partial-") }, [], "\(label): temporary files left", file: file, line: line)

        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        let photos = try catalogue.allPhotos()
        let setOfCapture = Dictionary(uniqueKeysWithValues: try catalogue.captures().map { ($0.id, $0.setName) })
        let catalogued = photos.map { "\(setOfCapture[$0.captureId] ?? "?")/\($0.sourcePath)" }
        XCTAssertEqual(Set(catalogued).count, catalogued.count, "\(label): a photo catalogued twice", file: file, line: line)
        XCTAssertEqual(Set(catalogued), Set(expected.photos.keys), "\(label): every photo catalogued", file: file, line: line)

        // The catalogued SHA-256 is the content's, read by another program than ingest.
        let sums = try IngestHarness.shell("cd library && sha256sum " + photos.map { "'\($0.originalPath)'" }.joined(separator: " "),
                                           in: work)
        let onDisk = Dictionary(uniqueKeysWithValues: sums.split(separator: "\n").map {
            (String($0.dropFirst(66)), String($0.prefix(64)))
        })
        for photo in photos where onDisk[photo.originalPath] != photo.sha256 {
            XCTFail("\(label): \(photo.originalPath) does not hold the catalogued bytes", file: file, line: line)
        }

        let quarantine = Set(everything.filter { $0.hasPrefix("quarantine/") })
        for path in quarantine where !path.hasSuffix(".reason") {
            XCTAssertTrue(quarantine.contains(path + ".reason"), "\(label): \(path) without its reason", file: file, line: line)
        }
        for reason in quarantine where reason.hasSuffix(".reason") {
            XCTAssertTrue(quarantine.contains(String(reason.dropLast(7))), "\(label): \(reason) without its file", file: file, line: line)
        }
        for reject in expected.rejects + expected.duplicates {
            let hidden = (reject as NSString).lastPathComponent.hasPrefix(".")
            let kept = hidden ? everything.contains("inbox/\(reject)")
                : quarantine.contains("quarantine/\(reject)") || quarantine.contains("quarantine/duplicates/\(reject)")
            XCTAssertTrue(kept, "\(label): \(reject) is neither quarantined nor (hidden) left alone", file: file, line: line)
        }
        let inbox = everything.filter { $0.hasPrefix("inbox/") }
        let keptInInbox = originals == "copy" ? Set(expected.photos.keys.map { "inbox/\($0)" }) : []
        for path in inbox where !(path as NSString).lastPathComponent.hasPrefix(".") {
            XCTAssertTrue(keptInInbox.contains(path), "\(label): \(path) left in the inbox", file: file, line: line)
        }
    }
}

/// What a run leaves, without what differs between any two runs (ids, times): the captures, and the
/// files in the library, the quarantine and the inbox.
private struct LibraryState: Equatable, CustomStringConvertible {
    /// `set | barcode | photo, photo…` per capture, sorted.
    var captures: [String]
    var files: [String]

    init(of work: URL) throws {
        let catalogue = try IngestHarness.catalogue(at: work.appendingPathComponent("library/catalog.sqlite"))
        captures = try catalogue.captures().map { capture in
            let photos = try catalogue.photos(ofCapture: capture.id).map(\.sourcePath)
            return "\(capture.setName) | \(capture.barcode ?? "-") | \(photos.joined(separator: ", "))"
        }.sorted()
        files = IngestHarness.files(under: work).filter {
            !$0.hasPrefix("library/catalog.sqlite") && $0 != "library/.lock" && $0 != "pipeline.json"
        }
    }

    var description: String {
        (["captures:"] + captures + ["files:"] + files).joined(separator: "\n")
    }
}

/// What one kill left behind.
private struct KillOutcome {
    /// The process was still running when killed (not already finished).
    var landed: Bool
    var leftJournal: Bool
    var leftTemporary: Bool
}

/// How the kills of a test fell, for its closing line.
private struct KillTally: CustomStringConvertible {
    var kills = 0
    var secondKills = 0
    var landed = 0
    var journals = 0
    var temporaries = 0

    mutating func note(_ outcome: KillOutcome, second: Bool = false) {
        kills += 1
        if second { secondKills += 1 }
        if outcome.landed { landed += 1 }
        if outcome.leftJournal { journals += 1 }
        if outcome.leftTemporary { temporaries += 1 }
    }

    var description: String {
        "\(kills) kills (\(secondKills) of them during the rerun), \(landed) before the run ended, "
            + "\(journals) left a commit journal, \(temporaries) left temporary files"
    }
}
