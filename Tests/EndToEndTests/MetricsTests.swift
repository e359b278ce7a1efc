import Foundation
import TestSupport
import XCTest

/// The metrics operators scrape: `ingest watch --metrics` during and after a generated corpus,
/// `ingest run --metrics-file`, and serve's `/metrics`, each checked against what the run itself
/// reported and by `promtool check metrics`.
final class MetricsTests: XCTestCase {
    /// One sample of one series: `name{labels} value`.
    private struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The samples of Prometheus' text format, comments left out; fails the test on a line it cannot read.
    private func samples(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Sample] {
        let pattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
        let label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { row in
            guard let match = row.wholeMatch(of: pattern), let value = Double(match.3) else {
                XCTFail("not a sample: \(row)", file: file, line: line)
                return nil
            }
            let labels = Dictionary((match.2 ?? "").matches(of: label).map { (String($0.1), String($0.2)) }) { first, _ in first }
            return Sample(name: String(match.1), labels: labels, value: value)
        }
    }

    /// The sum of the samples named `name` whose labels include `labels`.
    private func total(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
            .reduce(0) { $0 + $1.value }
    }

    /// `promtool check metrics` on `text`: Prometheus' own reading of the format and its naming rules.
    private func checkWithPromtool(_ text: String, in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool") else {
            return XCTFail("promtool is missing: scripts/setup --test installs Debian's prometheus", file: file, line: line)
        }
        let path = folder.appendingPathComponent("scraped-\(UUID().uuidString).prom")
        try Data(text.utf8).write(to: path)
        let check = try IngestHarness.execute(URL(fileURLWithPath: "/bin/sh"), ["-c", "promtool check metrics < '\(path.path)'"],
                                              in: folder)
        XCTAssertEqual(check.status, 0, "promtool: \(check.stdout)\(check.stderr)", file: file, line: line)
    }

    private func records(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The sum of metadata field `key` over the log records with `message`.
    /// The log lines of sets done, whatever became of them (`SetReport.Outcome`).
    private static let setMessages: Set<String> = ["set committed", "set waiting", "set handed over"]

    /// `key` summed over the log lines of every set done.
    private func sum(_ key: String, of records: [[String: Any]]) -> Double {
        records.filter { Self.setMessages.contains($0["message"] as? String ?? "") }
            .compactMap { ($0["metadata"] as? [String: Any])?[key] as? String }.compactMap(Double.init).reduce(0, +)
    }

    func testWatch_metricsScrapedDuringAndAfterACorpus_addUpToTheSetsItCommitted() throws {
        let work = try TemporaryFolder.make("metrics-watch")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let corpus = work.appendingPathComponent("corpus")
        XCTAssertTrue(IngestHarness.generateCorpus(into: corpus, ["--sets", "12", "--seed", "23", "--width", "1008", "--height", "756"]))
        try IngestHarness.shell("mv corpus/inbox inbox && mkdir library", in: work)
        let sets = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("inbox").path)
            .filter { !$0.hasPrefix(".") }.count
        // One worker, so the sets take long enough to be scraped half done.
        try IngestHarness.writeConfig(["settleSeconds": 1, "workers": 1], in: work)

        let watch = try BackgroundIngest(["watch", "--metrics", "127.0.0.1:0", "--log-format", "json"], in: work)
        var url: String?
        XCTAssertTrue(IngestHarness.eventually(within: 20) {
            url = watch.stdout.firstMatch(of: /metrics at (http:\S+)/).map { String($0.1) }
            return url != nil
        }, watch.stdout + watch.stderr)
        let client = HTTPClient(url: try XCTUnwrap(url))

        // Scrape until every set is committed: the counters never go down, and some scrape sees
        // the corpus half done.
        var scrapes: [[Sample]] = []
        var halfDone = false
        let finished = try IngestHarness.eventually(within: 240) {
            let response = try client.send("GET", "/metrics")
            XCTAssertEqual(response.status, 200, response.text)
            XCTAssertEqual(response.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
            let now = samples(response.text)
            if let previous = scrapes.last {
                for sample in previous where sample.name.hasSuffix("_total") || sample.name.hasSuffix("_count") {
                    XCTAssertGreaterThanOrEqual(total(now, sample.name, sample.labels), sample.value, "\(sample) went down")
                }
            }
            scrapes.append(now)
            let committed = total(now, "ingest_sets_total")
            halfDone = halfDone || (committed > 0 && committed < Double(sets))
            return committed == Double(sets)
        }
        XCTAssertTrue(finished, "the watch did not finish the corpus: \(watch.stderr.suffix(2000))")
        XCTAssertTrue(halfDone, "no scrape of \(scrapes.count) saw the corpus half done")

        let final = try client.send("GET", "/metrics")
        let after = samples(final.text)
        let log = records(watch.stderr)
        let committed = log.filter { $0["message"] as? String == "set committed" }
        XCTAssertEqual(committed.count, sets)
        let photos = sum("photos", of: log)
        let duplicates = sum("duplicates", of: log)
        let quarantined = sum("quarantined", of: log)
        let failed = sum("failed", of: log)
        XCTAssertGreaterThan(photos, 20)
        XCTAssertGreaterThan(quarantined, 0, "the corpus has broken files")
        XCTAssertEqual(total(after, "ingest_photos_total", ["outcome": "ingested"]), photos)
        XCTAssertEqual(total(after, "ingest_photos_total", ["outcome": "duplicate"]), duplicates)
        XCTAssertEqual(total(after, "ingest_photos_total", ["outcome": "quarantined"]), quarantined)
        XCTAssertEqual(total(after, "ingest_photos_total", ["outcome": "failed"]), failed)
        XCTAssertEqual(total(after, "ingest_quarantined_photos_total"), quarantined, "every quarantined photo has its reason's kind")
        XCTAssertEqual(total(after, "ingest_captures_total"), sum("captures", of: log))
        XCTAssertEqual(total(after, "ingest_sets_total", ["outcome": "committed"]) + total(after, "ingest_sets_total", ["outcome": "waiting"]),
                       Double(sets))
        // Every file read is timed once in each stage it reached.
        XCTAssertEqual(total(after, "ingest_photo_seconds_count", ["stage": "read"]), photos + duplicates + quarantined + failed)
        XCTAssertGreaterThanOrEqual(total(after, "ingest_photo_seconds_count", ["stage": "decode"]), photos)
        XCTAssertGreaterThanOrEqual(total(after, "ingest_photo_seconds_count", ["stage": "barcodes"]), photos)
        XCTAssertEqual(total(after, "ingest_set_seconds_count", ["stage": "commit"]), Double(sets))
        XCTAssertGreaterThan(total(after, "ingest_set_seconds_sum", ["stage": "total"]), 0)

        // The gauges read at the scrape: the catalogue as the log says, the inbox as it is.
        XCTAssertEqual(total(after, "ingest_catalogue_photos"), photos)
        XCTAssertEqual(total(after, "ingest_catalogue_captures"), sum("captures", of: log))
        let inbox = work.appendingPathComponent("inbox").path
        let left = try FileManager.default.contentsOfDirectory(atPath: inbox).filter { set in
            !set.hasPrefix(".") && ((try? FileManager.default.contentsOfDirectory(atPath: inbox + "/" + set)) ?? []).contains { !$0.hasPrefix(".") }
        }
        XCTAssertEqual(total(after, "ingest_inbox_sets_waiting"), Double(left.count), "\(left)")
        XCTAssertGreaterThan(total(after, "ingest_library_free_bytes"), 0)
        XCTAssertEqual(total(after, "ingest_library_free_floor_bytes"), 1024 * 1024 * 1024, "minFreeMB's default, 1024")
        XCTAssertEqual(total(after, "ingest_ready"), 1)
        try checkWithPromtool(final.text, in: work)

        let ready = try client.send("GET", "/readyz")
        XCTAssertEqual(ready.status, 200, ready.text)
        XCTAssertEqual(try client.send("GET", "/").status, 404, "watch --metrics serves monitoring only, no pages")
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 20), 0, watch.stderr.suffix(2000).description)
    }

    func testRun_metricsFile_saysWhatTheRunSummarySays() throws {
        let work = try SampleLibrary(for: self)
        let run = try work.ingest(["run", "--log-format", "json", "--metrics-file", "run.prom"])
        XCTAssertEqual(run.status, 1, "the samples' bad files are quarantined: \(run.stderr)")
        let summary = try XCTUnwrap(records(run.stderr).last { $0["message"] as? String == "run finished" }?["metadata"] as? [String: Any])
        let text = try String(contentsOf: work.folder.appendingPathComponent("run.prom"), encoding: .utf8)
        let found = samples(text)
        XCTAssertEqual(total(found, "ingest_photos_total", ["outcome": "ingested"]), Double(summary["photos"] as? String ?? ""))
        XCTAssertEqual(total(found, "ingest_captures_total"), Double(summary["captures"] as? String ?? ""))
        XCTAssertEqual(total(found, "ingest_sets_total"), Double(summary["sets"] as? String ?? ""))
        let quarantined = try XCTUnwrap(summary["quarantined"] as? [[String: Any]])
        XCTAssertEqual(total(found, "ingest_photos_total", ["outcome": "quarantined"]), Double(quarantined.count))
        // The samples' three bad files: an empty one, a truncated JPEG and text named .jpg.
        XCTAssertEqual(total(found, "ingest_quarantined_photos_total", ["reason": "empty"]), 1, text)
        XCTAssertEqual(total(found, "ingest_quarantined_photos_total", ["reason": "undecodable"]), 1, text)
        XCTAssertEqual(total(found, "ingest_quarantined_photos_total", ["reason": "not_an_image"]), 1, text)
        XCTAssertEqual(total(found, "ingest_catalogue_photos"), Double(summary["photos"] as? String ?? ""))
        XCTAssertEqual(total(found, "ingest_inbox_sets_waiting"), 0, "bad-files/ keeps only its .DS_Store: nothing waits")
        try checkWithPromtool(text, in: work.folder)

        let missing = try work.ingest(["run", "--metrics-file", "no/such/folder/run.prom"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no/such/folder"), missing.stderr)
        let folder = try work.ingest(["run", "--metrics-file", "library"])
        XCTAssertEqual(folder.status, 64, "a folder is refused before the run: \(folder.stderr)")
        XCTAssertTrue(folder.stderr.contains("library is a folder"), folder.stderr)
    }

    func testServe_metrics_countRequestsByRouteAndStatus_behindTheToken() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let token = "metrics-token-0123456789"
        let server = try ServeHarness(in: work.folder, arguments: ["--listen", "127.0.0.1:0", "--token", token], test: self)
        let bearer = ["Authorization": "Bearer \(token)"]
        XCTAssertEqual(try server.client.send("GET", "/metrics").status, 401, "a scraper without the token is refused, not redirected")
        for _ in 0 ..< 3 { XCTAssertEqual(try server.client.send("GET", "/readyz", headers: bearer).status, 200) }
        XCTAssertEqual(try server.client.send("GET", "/api/captures/no-such-capture", headers: bearer).status, 404)

        let response = try server.client.send("GET", "/metrics", headers: bearer)
        XCTAssertEqual(response.status, 200, response.text)
        let found = samples(response.text)
        XCTAssertEqual(total(found, "ingest_http_requests_total", ["route": "/readyz", "method": "GET", "status": "200"]), 3,
                       response.text)
        XCTAssertEqual(total(found, "ingest_http_requests_total", ["method": "GET", "status": "404"]), 1, response.text)
        XCTAssertEqual(total(found, "ingest_http_request_seconds_count", ["route": "/readyz"]), 3, response.text)
        XCTAssertEqual(total(found, "ingest_catalogue_photos"), 17)
        XCTAssertEqual(total(found, "ingest_ready"), 1)
        try checkWithPromtool(response.text, in: work.folder)
    }

    func testWatch_metricsOnAnOpenAddressWithoutToken_isAUsageError() throws {
        let work = try SampleLibrary(for: self)
        let watch = try work.ingest(["watch", "--metrics", "0.0.0.0:0"])
        XCTAssertEqual(watch.status, 64, watch.stderr)
        XCTAssertTrue(watch.stderr.contains("--metrics") && watch.stderr.contains("token"), watch.stderr)
    }

    func testWatch_metricsOnATakenPort_saysWhichAddress() throws {
        let work = try SampleLibrary(for: self)
        try work.run()
        let server = try ServeHarness(in: work.folder, test: self)
        let taken = try XCTUnwrap(URL(string: server.url)?.port)
        let watch = try work.ingest(["watch", "--metrics", "127.0.0.1:\(taken)"])
        XCTAssertEqual(watch.status, 1, watch.stderr)
        XCTAssertTrue(watch.stderr.contains("--metrics 127.0.0.1:\(taken): cannot serve there") && watch.stderr.contains("in use"),
                      watch.stderr)
    }

    /// The alert rules the README shows, as Prometheus reads them (`promtool check rules`), and
    /// each firing on the series it is about (`promtool test rules`).
    func testAlertRules_areValidAndFireWhenTheyShould() throws {
        let rules = IngestHarness.packageRoot.appendingPathComponent("contrib/ingest-alerts.yml")
        let check = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/promtool"), ["check", "rules", rules.path],
                                              in: IngestHarness.packageRoot)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let readme = try String(contentsOf: IngestHarness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = try String(contentsOf: rules, encoding: .utf8)
        for name in ["IngestInboxNotDraining", "IngestQuarantineRateHigh", "IngestDiskNearFloor"] {
            XCTAssertTrue(shown.contains("alert: \(name)") && readme.contains("alert: \(name)"), name)
        }
        let tests = IngestHarness.packageRoot.appendingPathComponent("contrib/ingest-alerts.test.yml")
        let test = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/promtool"), ["test", "rules", tests.path],
                                             in: IngestHarness.packageRoot)
        XCTAssertEqual(test.status, 0, test.stdout + test.stderr)
    }
}
