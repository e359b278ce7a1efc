import Foundation
import TestSupport
import XCTest

/// Photos that hold two products' codes: the shelf photo between a product's own photos neither
/// splits its capture nor gives it the other product's code, which `show` and `list --json` still
/// report as a code its photos read.
final class SeveralCodesTests: XCTestCase {
    /// Draws EAN-13 codes (python-barcode, as the corpus does) side by side on white, one JPEG a
    /// photo, written in the order given (file times order the set: the photos have no EXIF), each a
    /// little taller than the one before, so that no two have the same bytes. A code written with a
    /// trailing `+` has bars twice as tall: ZBar reads it along more lines.
    private static let script = #"""
import sys, time, barcode
from barcode.writer import ImageWriter
from PIL import Image
folder = sys.argv[1]
for index, spec in enumerate(sys.argv[2:]):
    name, codes = spec.split("=")
    images = [barcode.get("ean13", code.rstrip("+")[:12], writer=ImageWriter())
              .render({"module_width": 0.33, "module_height": 30 if code.endswith("+") else 15, "dpi": 200})
              for code in codes.split(",")]
    canvas = Image.new("RGB", (sum(i.width for i in images) + 100 * (len(images) + 1), max(i.height for i in images) + 200 + 10 * index), "white")
    x = 100
    for image in images:
        canvas.paste(image, (x, 100))
        x += image.width + 100
    canvas.save(f"{folder}/{name}", quality=92)
    time.sleep(0.05)
"""#

    func testShelfPhotoWithTwoProductsCodes_keepsOneCaptureKeyedByTheSharedCode_andReportsTheOther() throws {
        let work = try TemporaryFolder.make("several-codes")
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let set = work.appendingPathComponent("inbox/shelf")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        let coffee = "4006381333931", tea = "5901234123457"
        // The tea's code read along more lines on the shelf photo: the photo's own ranking puts it first.
        _ = try runPython(Self.script, arguments: [set.path, "1-front.jpg=\(coffee)", "2-shelf.jpg=\(tea)+,\(coffee)",
                                                   "3-back.jpg=\(coffee)", "4-tea.jpg=\(tea)"])
        try IngestHarness.writeConfig(["inbox": "inbox", "library": "library", "quarantine": "quarantine"], in: work)
        let run = try IngestHarness.ingest(["run", "--quiet"], in: work)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)

        let list = try IngestHarness.ingest(["list", "--json"], in: work)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let byCode = Dictionary(uniqueKeysWithValues: listed.compactMap { capture in (capture["gtin13"] as? String).map { ($0, capture) } })
        XCTAssertEqual(listed.count, 2, list.stdout)
        XCTAssertEqual(byCode[coffee]?["photoCount"] as? Int, 3, "front, shelf and back: the shelf photo's second code splits nothing")
        XCTAssertEqual(byCode[coffee]?["otherCodes"] as? [String], [tea])
        XCTAssertEqual(byCode[tea]?["photoCount"] as? Int, 1, "the photo that reads only the tea's code starts its own capture")
        XCTAssertEqual(byCode[tea]?["otherCodes"] as? [String], [])

        let id = try XCTUnwrap(byCode[coffee]?["id"] as? String)
        let show = try IngestHarness.ingest(["show", id], in: work)
        XCTAssertTrue(show.stdout.contains("barcode   \(coffee) (EAN-13"), show.stdout)
        XCTAssertTrue(show.stdout.contains("also read \(tea)\n"), show.stdout)
        let shown = try IngestHarness.ingest(["show", "--json", id], in: work)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["otherCodes"] as? [String], [tea])
    }
}
