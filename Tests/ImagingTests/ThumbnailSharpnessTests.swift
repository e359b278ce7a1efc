import Foundation
import Imaging
import TestSupport
import XCTest

/// The thumbnail made during an ingest, from the photo's one decode, against libvips' own
/// (`vips_thumbnail_buffer`, what `vipsthumbnail` runs) of the same original.
final class ThumbnailSharpnessTests: XCTestCase {
    /// 12 MP photos with detail at every scale, as a phone leaves them (slightly soft, a little
    /// noise, JPEG at quality 90): stored 4032×3024, upright as stored (landscape.jpg) and turned
    /// by EXIF orientation 6 (portrait.jpg, 3024 wide upright).
    private func photos(in folder: String) throws -> [String] {
        _ = try runPython("""
            import sys, numpy as np, piexif
            from PIL import Image, ImageDraw, ImageFilter
            rng = np.random.default_rng(31)
            w, h = 4032, 3024
            # Texture at four scales: coarse blotches to fine grain.
            texture = np.zeros((h, w, 3))
            for cell, weight in [(256, 60), (48, 40), (9, 30), (2, 20)]:
                small = rng.normal(0, 1, (h // cell + 2, w // cell + 2, 3))
                layer = Image.fromarray(np.uint8(np.clip(128 + 40 * small, 0, 255))).resize(
                    ((w // cell + 2) * cell, (h // cell + 2) * cell), Image.BICUBIC)
                texture += weight * (np.asarray(layer, dtype=float)[:h, :w] - 128) / 40
            image = Image.fromarray(np.uint8(np.clip(128 + texture, 0, 255)))
            # Print: lines, boxes and text of many sizes, as on a package.
            draw = ImageDraw.Draw(image)
            for _ in range(400):
                x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
                colour = tuple(int(c) for c in rng.integers(0, 256, 3))
                size = int(rng.integers(4, 300))
                kind = rng.integers(0, 3)
                if kind == 0:
                    draw.line((x, y, x + size, y + int(rng.integers(-size, size))), fill=colour, width=int(rng.integers(1, 9)))
                elif kind == 1:
                    draw.rectangle((x, y, x + size, y + size // 2), outline=colour, width=int(rng.integers(1, 7)))
                else:
                    draw.text((x, y), "Nutrition Facts 100 g 23 kcal", fill=colour, font_size=int(rng.integers(12, 120)))
            image = image.filter(ImageFilter.GaussianBlur(0.8))
            pixels = np.asarray(image, dtype=float) + rng.normal(0, 3, (h, w, 3))
            image = Image.fromarray(np.uint8(np.clip(pixels, 0, 255)))
            folder = sys.argv[1]
            image.save(folder + "/landscape.jpg", quality=90)
            image.save(folder + "/portrait.jpg", quality=90, exif=piexif.dump({"0th": {piexif.ImageIFD.Orientation: 6}}))
            """, arguments: [folder])
        return ["landscape.jpg", "portrait.jpg"].map { folder + "/" + $0 }
    }

    /// The variance of the Laplacian of each JPEG's luminance: the higher, the sharper.
    private func sharpness(of paths: [String]) throws -> [Double] {
        try runPython("""
            import sys, numpy as np
            from PIL import Image
            for path in sys.argv[1:]:
                g = np.asarray(Image.open(path).convert("L"), dtype=float)
                laplacian = g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1] + g[2:, 1:-1] - 4 * g[1:-1, 1:-1]
                print(laplacian.var())
            """, arguments: paths).split(separator: "\n").map { try XCTUnwrap(Double($0)) }
    }

    func testThumbnail_ofA12MPPhotoAtEveryWidth_isAsSharpAsLibvipsOwn() throws {
        let folder = try makeTemporaryFolder()
        var pairs: [(label: String, ours: String, libvips: String)] = []
        for path in try photos(in: folder) {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for width in [400, 800, 1600] {
                let ours = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: width).decode(original).thumbnail
                let libvips = try Thumbnail(original: original, width: width)
                let label = "\((path as NSString).lastPathComponent) at \(width) px"
                XCTAssertEqual([ours.width, ours.height], [libvips.width, libvips.height], label)
                let stem = "\(folder)/\((path as NSString).lastPathComponent)-\(width)"
                try Data(ours.jpeg).write(to: URL(fileURLWithPath: stem + "-ours.jpg"))
                try Data(libvips.jpeg).write(to: URL(fileURLWithPath: stem + "-libvips.jpg"))
                pairs.append((label, stem + "-ours.jpg", stem + "-libvips.jpg"))
            }
        }
        let values = try sharpness(of: pairs.flatMap { [$0.ours, $0.libvips] })
        XCTAssertEqual(values.count, 2 * pairs.count)
        for (index, pair) in pairs.enumerated() where values.count == 2 * pairs.count {
            let ratio = values[2 * index] / values[2 * index + 1]
            // 0.9: the issue's bar. A thumbnail shrunk by area averaging from a copy less than twice
            // its width (what ingest did) is 0.53–0.76 as sharp; resampled with Lanczos from the
            // quarter-size decode without making up for its averaging, the portrait photo at 400 px
            // is 0.90.
            XCTAssertGreaterThanOrEqual(ratio, 0.9, "\(pair.label): \(ratio) of libvips' sharpness")
            print("\(pair.label): \(String(format: "%.3f", ratio)) of libvips' sharpness")
        }
    }
}
