import Foundation
import Catalog
@testable import Imaging
@testable import Pipeline
import XCTest

/// The path for small codes in large photos: the overview (shrunk on load) cannot resolve them, the
/// partial full-resolution decode of their region can.
final class FullResolutionBarcodeTests: XCTestCase {
    /// Writes a 4000×3000 JPEG with one EAN-13 drawn at `module` pixels per module, turned by `angle`
    /// degrees, at (`x`, `y`); returns its path.
    private func largePhoto(module: Double, angle: Double, x: Int, y: Int, in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent("large.jpg")
        _ = try runPython("""
            import sys, barcode, numpy as np
            from PIL import Image
            bits = barcode.get('ean13', '590123412345').build()[0]
            m, quiet = float(sys.argv[2]), 11
            height = int(len(bits) * m * 0.5)
            label = np.full((height + 8, int((len(bits) + 2 * quiet) * m)), 255, np.uint8)
            for i, b in enumerate(bits):
                if b == '1':
                    label[4:4 + height, int((quiet + i) * m):int((quiet + i + 1) * m)] = 0
            label = Image.fromarray(label).rotate(float(sys.argv[3]), expand=True, fillcolor=255, resample=Image.BICUBIC)
            photo = Image.new('L', (4000, 3000), 150)
            photo.paste(label, (int(sys.argv[4]), int(sys.argv[5])))
            photo.convert('RGB').save(sys.argv[1], quality=92)
            """, arguments: [path, String(module), String(angle), String(x), String(y)])
        return path
    }

    func testAnalyse_smallCodeInA12MegapixelPhoto_isReadFromFullResolution() throws {
        let folder = try makeTemporaryFolder()
        let staging = (folder as NSString).appendingPathComponent("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // 1.8 px per module: 0.45 px in the 1/4 overview, far too fine for ZBar there.
        let path = try largePhoto(module: 1.8, angle: 12, x: 2500, y: 1900, in: folder)
        let analyzer = try PhotoAnalyzer(config: PipelineConfig(folder: folder), stagingFolder: staging)
        guard case .analysed(let photo) = analyzer.analyse(InboxFile(setName: "s", relativePath: "large.jpg",
                                                                     absolutePath: path)) else {
            return XCTFail("the photo must be analysed")
        }
        XCTAssertEqual(photo.barcodes.map(\.text), ["5901234123457"])
        let box = try XCTUnwrap(photo.barcodes.first?.box)
        XCTAssertTrue((2300...2900).contains(box.x) && (1700...2300).contains(box.y),
                      "the code is located in full-resolution coordinates, got \(box)")
    }

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
