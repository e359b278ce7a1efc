import Foundation
@testable import Imaging
import TestSupport
import XCTest

/// Full-resolution luminance of one region of a JPEG, for barcodes too fine for the overview.
final class JPEGRegionTests: XCTestCase {
    func testJPEGRegion_grey_matchesTheSamePixelsOfAFullDecode() throws {
        let folder = try makeTemporaryFolder()
        let path = try largePhoto(module: 3, angle: 0, x: 1000, y: 700, in: folder)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let box = PixelBox(x: 1013, y: 701, width: 300, height: 77)
        let (region, origin) = try JPEGRegion.grey(bytes, box: box)
        XCTAssertLessThanOrEqual(origin.x, box.x, "the crop may only widen to the left")
        XCTAssertGreaterThanOrEqual(origin.x + origin.width, box.x + box.width)
        XCTAssertEqual(origin.y, box.y)
        XCTAssertEqual(origin.height, box.height)
        XCTAssertEqual(region.width, origin.width)

        // The same rectangle through Pillow's full decode, as luminance.
        let reference = try runPython("""
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]).convert('L')
            x, y, w, h = map(int, sys.argv[2:6])
            print(' '.join(str(v) for v in im.crop((x, y, x + w, y + h)).getdata()))
            """, arguments: [path, String(origin.x), String(origin.y), String(origin.width), String(origin.height)])
        let expected = reference.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(expected.count, region.pixels.count)
        // Different IDCT and colour paths round differently; the picture must be the same.
        let worst = zip(expected, region.pixels).map { abs($0 - Int($1)) }.max() ?? 255
        XCTAssertLessThanOrEqual(worst, 8)
    }

    func testJPEGRegion_truncatedFile_throwsInsteadOfReturningGarbage() throws {
        let folder = try makeTemporaryFolder()
        let path = try largePhoto(module: 3, angle: 0, x: 1000, y: 2500, in: folder)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let truncated = Array(bytes.prefix(bytes.count / 2))
        XCTAssertThrowsError(try JPEGRegion.grey(truncated, box: PixelBox(x: 1000, y: 2500, width: 400, height: 200)))
    }
}
