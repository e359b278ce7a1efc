import Foundation
@testable import Imaging
import TestSupport
import XCTest
import Vocabulary

/// The one decode of a photo: its shrink, its thumbnail, and the sizes it refuses.
final class PhotoDecoderTests: XCTestCase {
    /// A JPEG of `width`×`height` noise (so that no two shrinks look alike) with EXIF `orientation`.
    private func jpeg(width: Int, height: Int, orientation: Int = 1) throws -> [UInt8] {
        let path = try makeTemporaryFolder() + "/photo.jpg"
        _ = try runPython("""
            import sys, numpy as np, piexif
            from PIL import Image
            w, h, o = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            pixels = np.random.default_rng(7).integers(0, 256, (h, w, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(sys.argv[1], quality=80, exif=piexif.dump({"0th": {piexif.ImageIFD.Orientation: o}}))
            """, arguments: [path, String(width), String(height), String(orientation)])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testDecode_largePNG_isShrunkAfterDecodingAndKeepsItsFullResolutionGrey() throws {
        // Formats without shrink-on-load used to be read whole: a 12 MP HEIC cost ~0.3 s more
        // than vipsthumbnail. Now shrunk like a JPEG, its full-resolution grey kept for small codes.
        let path = try makeTemporaryFolder() + "/photo.png"
        _ = try runPython("""
            import sys, numpy as np
            from PIL import Image
            pixels = np.random.default_rng(7).integers(0, 256, (1800, 2400, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(sys.argv[1], compress_level=1)
            """, arguments: [path])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(bytes)
        XCTAssertEqual(decoded.shrink, 2)
        XCTAssertEqual([decoded.overview.width, decoded.overview.height], [1200, 900])
        XCTAssertEqual([decoded.thumbnail.width, decoded.thumbnail.height], [400, 300])
        let full = try XCTUnwrap(decoded.fullResolution)
        XCTAssertEqual([full.width, full.height], [2400, 1800])
        let (region, origin) = try decoded.fullResolution(PixelBox(x: 2300, y: 10, width: 500, height: 20), from: bytes)
        XCTAssertEqual(origin, PixelBox(x: 2300, y: 10, width: 100, height: 20), "clamped to the photo")
        XCTAssertEqual(region.pixels, full.cropped(to: origin).pixels)
        // Green band of the photo's top-left overview pixel: the mean of its 2×2 block.
        let block = [0, 1, 2400, 2401].map { Int(full.pixels[$0]) }.reduce(0, +)
        XCTAssertEqual(Double(decoded.overview.pixels[0]), Double(block) / 4, accuracy: 1)
    }

    func testDecode_heic_isShrunkAsItsRowsPassAndKeepsItsFullResolutionGrey() throws {
        // libheif decodes a HEIC whole; its rows then pass once into the grey and the overview,
        // with no second full-size copy. A limit of one byte: the decode runs alone, after the
        // heaps' freed buffers are given back.
        let path = try makeTemporaryFolder() + "/photo.heic"
        _ = try runPython("""
            import subprocess, sys, numpy as np
            from PIL import Image
            # Gradients at a middling quality: x265 takes many seconds over noise at Q=90, and the
            # test needs only pixels that differ.
            y, x = np.mgrid[0:1800, 0:2400]
            pixels = np.stack([x * 255 // 2399, y * 255 // 1799, (x // 7 + y // 5) % 256], -1).astype(np.uint8)
            Image.fromarray(pixels).save(sys.argv[1] + ".png", compress_level=1)
            subprocess.run(["vips", "copy", sys.argv[1] + ".png", sys.argv[1] + "[Q=50]"], check=True)
            """, arguments: [path])
        var decoder = PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400)
        decoder.memory = DecodeMemory(limit: 1)
        let decoded = try decoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(decoded.header.format, .heif)
        XCTAssertEqual(decoded.shrink, 2)
        XCTAssertEqual([decoded.overview.width, decoded.overview.height], [1200, 900])
        XCTAssertEqual([decoded.thumbnail.width, decoded.thumbnail.height], [400, 300])
        let full = try XCTUnwrap(decoded.fullResolution)
        XCTAssertEqual([full.width, full.height], [2400, 1800])
        for (x, y) in [(0, 0), (599, 450), (1199, 899)] {
            let block = [0, 1, 2400, 2401].map { Int(full.pixels[2 * y * 2400 + 2 * x + $0]) }.reduce(0, +)
            XCTAssertEqual(Double(decoded.overview.pixels[y * 1200 + x]), Double(block) / 4, accuracy: 1, "(\(x), \(y))")
        }
    }

    func testDecode_jpeg_keepsNoFullResolutionGrey() throws {
        XCTAssertNil(try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(try jpeg(width: 2400, height: 1800)).fullResolution)
    }

    func testDecode_portraitPhotoAndAWideThumbnail_shrinksNoFurtherThanTheThumbnailNeeds() throws {
        // 1512×2016 shrinks to 756×1008 for the overview, narrower than an 800 px thumbnail: that
        // thumbnail used to be an enlargement of the overview.
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 800).decode(try jpeg(width: 1512, height: 2016))
        XCTAssertEqual(decoded.shrink, 1)
        XCTAssertEqual([decoded.thumbnail.width, decoded.thumbnail.height], [800, 1067])
        XCTAssertEqual(try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(try jpeg(width: 1512, height: 2016)).shrink,
                       2, "a 400 px thumbnail still lets it shrink")
    }

    func testDecode_photoStoredSideways_keepsItsUprightWidthForTheThumbnail() throws {
        // Stored 2016×1512 with orientation 6: upright it is 1512 wide, the side that must stay ≥ 800.
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 800)
            .decode(try jpeg(width: 2016, height: 1512, orientation: 6))
        XCTAssertEqual(decoded.shrink, 1)
        XCTAssertEqual(decoded.thumbnail.width, 800)
    }

    func testDecode_photoNarrowerThanTheThumbnail_keepsItsOwnWidth() throws {
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(try jpeg(width: 300, height: 225))
        XCTAssertEqual([decoded.thumbnail.width, decoded.thumbnail.height], [300, 225], "never enlarged")
    }

    func testDecode_sideShorterThanTheMinimum_isRefusedAsTooSmall() throws {
        let decoder = PhotoDecoder(maxPixels: 100_000_000, minSide: 64, thumbnailWidth: 400)
        for (width, height) in [(1, 1), (2000, 10), (63, 500)] {
            XCTAssertThrowsError(try decoder.decode(try jpeg(width: width, height: height))) { error in
                XCTAssertEqual(error as? ImageError, .tooFewPixels(width: width, height: height, limit: 64))
            }
        }
        XCTAssertEqual(try decoder.decode(try jpeg(width: 64, height: 64)).thumbnail.width, 64, "64×64 is a photo")
    }
}
