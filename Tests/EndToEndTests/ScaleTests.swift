import Foundation
import TestSupport
import XCTest

/// The commands that walk the whole catalogue, over 100,000 captures (300,000 photos, their files
/// as hard links): memory must not grow with the catalogue. The earlier code loaded every row
/// (export: 487 MB, list --json: 343 MB, verify: 465 MB at this size).
final class ScaleTests: XCTestCase {
    /// Peak resident memory allowed to each command, whatever the catalogue's size.
    static let limitKB = 64 * 1024

    /// The work folder with the catalogue, made once for the class (about half a minute).
    private static let work = Result<URL, any Error> {
        let work = try TemporaryFolder.make("scale")
        let fill = IngestHarness.binary.deletingLastPathComponent().appendingPathComponent("scale-fill")
        try IngestHarness.shell("""
            python3 -c "from PIL import Image; Image.new('RGB', (400, 300), (200, 120, 40)).save('thumb.jpg', quality=85)" && \
            '\(fill.path)' --catalog library/catalog.sqlite --library library --captures 100000 \
              --original '\(IngestHarness.packageRoot.path)/samples/single-product/IMG_0001.jpg' \
              --thumbnail thumb.jpg --thumbnail-size 400x300 2>/dev/null && echo '{}' > pipeline.json
            """, in: work)
        return work
    }

    override class func tearDown() {
        if case .success(let work) = work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    /// Runs `ingest arguments` in the work folder; its exit status and peak resident memory in KB,
    /// from `getrusage` of a Python parent that has no other child.
    private func measure(_ arguments: [String]) throws -> (status: Int32, peakKB: Int) {
        let work = try Self.work.get()
        let command = ([IngestHarness.binary.path] + arguments).map { "'\($0)'" }.joined(separator: ", ")
        let output = try IngestHarness.shell("""
            python3 -c "import resource, subprocess, sys; code = subprocess.run([\(command)], stdout=subprocess.DEVNULL).returncode; \
            print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
            """, in: work)
        let parts = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (Int32(parts.first ?? -1), parts.last ?? Int.max)
    }

    func testStreamingCommands_over100000Captures_stayUnder64MB() throws {
        for arguments in [["export", "--csv", "out.csv"], ["list", "--json", "--all"], ["list", "--all"],
                          ["verify", "--quick"], ["thumbnails", "--missing"], ["list"]] {
            let (status, peak) = try measure(arguments)
            XCTAssertEqual(status, 0, "\(arguments)")
            XCTAssertLessThan(peak, Self.limitKB, "\(arguments): \(peak) KB at its peak")
        }
        let rows = try String(contentsOf: try Self.work.get().appendingPathComponent("out.csv"), encoding: .utf8)
            .split(separator: "\n").count
        XCTAssertEqual(rows, 100_001, "the header and every capture")
    }

    func testVerifyQuick_withTheLibraryMissing_streamsItsProblemsUnder64MB() throws {
        // Every one of the 300,000 files missing: the problems are printed as found, never all held.
        let (status, peak) = try measure(["verify", "--quick", "--library", "missing-library", "--catalog", "library/catalog.sqlite"])
        XCTAssertEqual(status, 1, "missing files are problems")
        XCTAssertLessThan(peak, Self.limitKB, "\(peak) KB at its peak")
    }

    func testListCount_andPages_over100000Captures() throws {
        let work = try Self.work.get()
        XCTAssertEqual(try IngestHarness.ingest(["list", "--count"], in: work).stdout, "100000\n")
        let page = try IngestHarness.ingest(["list", "--json", "--limit", "3", "--set", "set-000042"], in: work)
        XCTAssertEqual(page.status, 0)
        let ids = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [[String: Any]]).compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.count, 3)
        XCTAssertTrue(page.stderr.contains("ingest: 22 more captures match"), page.stderr)
        let first = try IngestHarness.ingest(["list"], in: work)
        XCTAssertTrue(first.stderr.contains("ingest: more than 10000 more captures match"), first.stderr)
        XCTAssertEqual(first.stdout.split(separator: "\n").count, 51, "the header and the newest 50")
        let next = try IngestHarness.ingest(["list", "--json", "--all", "--set", "set-000042", "--before", ids[2]], in: work)
        let rest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rest.count, 22)
        XCTAssertTrue(Set(rest.compactMap { $0["id"] as? String }).isDisjoint(with: ids))
    }
}
