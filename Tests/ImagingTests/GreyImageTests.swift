import CImageOps
import Foundation
@testable import Imaging
import TestSupport
import XCTest

/// The pixel loops behind barcode regions and thumbnails (CImageOps), on images small enough to
/// check by hand.
final class GreyImageTests: XCTestCase {
    /// A `width` × `height` image whose pixel at (x, y) is `value(x, y)`.
    private func image(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt8) -> GreyImage {
        GreyImage(width: width, height: height, drawing: value)
    }

    private func pixel(_ image: GreyImage, _ x: Int, _ y: Int) -> Int { Int(image.pixels[y * image.width + x]) }

    // MARK: region

    func testRegion_noTurnNoScale_isTheCrop() throws {
        let source = image(40, 30) { x, y in UInt8((x * 7 + y * 13) % 256) }
        let box = PixelBox(x: 5, y: 4, width: 20, height: 10)
        let region = try source.region(box, angle: 0, scale: 1, smoothRows: 1)
        XCTAssertEqual([region.width, region.height], [20, 10])
        XCTAssertEqual(region.pixels, source.cropped(to: box).pixels)
    }

    func testRegion_barsTurnedBy30Degrees_standUpright() throws {
        // Stripes 6 px wide whose gradient points 30° from +x (towards +y): turned by −30° the
        // gradient is horizontal, so each column of the result is one shade from top to bottom.
        let theta = 30.0 * Double.pi / 180
        let source = image(200, 200) { x, y in
            let along = Double(x) * cos(theta) + Double(y) * sin(theta)
            return Int(along / 6).isMultiple(of: 2) ? 20 : 230
        }
        let region = try source.region(PixelBox(x: 50, y: 50, width: 100, height: 100), angle: -30, scale: 1,
                                       smoothRows: 1)
        let (cx, cy) = (region.width / 2, region.height / 2)
        var downColumn = 0, alongRow = 0
        for step in -20...20 {
            downColumn = max(downColumn, abs(pixel(region, cx + 1, cy + step) - pixel(region, cx + 1, cy)))
            alongRow = max(alongRow, abs(pixel(region, cx + step, cy) - pixel(region, cx, cy)))
        }
        XCTAssertLessThan(downColumn, 60, "a column crosses no bar edge")
        XCTAssertGreaterThan(alongRow, 150, "a row crosses bars")
    }

    func testRegion_turned_hasWhiteCornersAndTheBoundingSize() throws {
        let source = image(100, 100) { _, _ in 0 }
        let region = try source.region(PixelBox(x: 20, y: 20, width: 40, height: 40), angle: 45, scale: 2,
                                       smoothRows: 1)
        // 40 px turned 45° spans 40·√2 ≈ 56.6 px, twice that scaled.
        XCTAssertEqual(region.width, 114)
        XCTAssertEqual(region.height, 114)
        XCTAssertEqual(pixel(region, 0, 0), 255, "outside the box is white, like a quiet zone")
        XCTAssertEqual(pixel(region, region.width / 2, region.height / 2), 0)
    }

    func testRegion_avx2Loop_givesThePortableLoopsBytes() throws {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        try XCTSkipUnless(cpu.contains(" avx2"), "no AVX2 on this CPU: only the portable loop runs")
        // Noise, so that every sample's four pixels and weights count; boxes anywhere, the image's
        // last rows and columns among them (where the AVX2 loop reads pixels one by one), turned,
        // enlarged and shrunk as the reader's regions are.
        var random = SplitMix64(seed: 17)
        let (width, height) = (301, 203)
        let noise = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &random) }
        var cases = 0, vectorised = 0
        for _ in 0..<400 {
            let boxWidth = Int.random(in: 1...width, using: &random), boxHeight = Int.random(in: 1...height, using: &random)
            let x = Int.random(in: 0...(width - boxWidth), using: &random), y = Int.random(in: 0...(height - boxHeight), using: &random)
            let edge = Bool.random(using: &random)
            let box = edge ? PixelBox(x: width - boxWidth, y: height - boxHeight, width: boxWidth, height: boxHeight)
                : PixelBox(x: x, y: y, width: boxWidth, height: boxHeight)
            let angle = [0, 90, -90, 180].randomElement(using: &random)! + Double.random(in: -45...45, using: &random)
            let scale = [0.5, 1, 1.37, 2, 3].randomElement(using: &random)!
            var outWidth: Int32 = 0, outHeight: Int32 = 0
            ingest_region_size(Int32(box.width), Int32(box.height), angle, scale, &outWidth, &outHeight)
            guard Int(outWidth) * Int(outHeight) < 2_000_000 else { continue }
            typealias Sampler = (UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32, Int32, Int32, Double, Double, Int32,
                                 UnsafeMutablePointer<UInt8>?, Int32, Int32) -> Int32
            func sampled(by sample: Sampler) -> [UInt8]? {
                var out = [UInt8](repeating: 0, count: Int(outWidth) * Int(outHeight))
                let status = noise.withUnsafeBufferPointer { source in
                    out.withUnsafeMutableBufferPointer { out in
                        sample(source.baseAddress, Int32(width), Int32(height), Int32(box.x), Int32(box.y), Int32(box.width),
                               Int32(box.height), angle, scale, 1, out.baseAddress, outWidth, outHeight)
                    }
                }
                return status == 0 ? out : nil
            }
            let (fast, portable) = (sampled(by: ingest_sample_region), sampled(by: ingest_sample_region_portable))
            XCTAssertNotNil(fast)
            XCTAssertEqual(fast, portable, "\(box) turned \(angle)°, scaled \(scale)")
            cases += 1
            if outWidth >= 8 { vectorised += 1 }
        }
        XCTAssertGreaterThan(cases, 300)
        XCTAssertGreaterThan(vectorised, 250, "regions wide enough for the AVX2 loop's groups of eight")
    }

    func testRegion_smoothRows_averagesAlongTheColumns() throws {
        // One black row in white: averaged over 5 rows it becomes a 5-row band at 4/5 white.
        let source = image(10, 20) { _, y in y == 10 ? 0 : 255 }
        let region = try source.region(PixelBox(x: 0, y: 0, width: 10, height: 20), angle: 0, scale: 1, smoothRows: 5)
        XCTAssertEqual((6...14).map { pixel(region, 3, $0) }, [255, 255, 204, 204, 204, 204, 204, 255, 255])
    }

    func testRegion_boxOutsideTheImage_isClampedOrRefused() throws {
        let source = image(20, 20) { _, _ in 100 }
        XCTAssertEqual(try source.region(PixelBox(x: 15, y: 15, width: 10, height: 10), angle: 0, scale: 1,
                                         smoothRows: 1).width, 5)
        XCTAssertThrowsError(try source.region(PixelBox(x: 30, y: 30, width: 10, height: 10), angle: 0, scale: 1,
                                               smoothRows: 1))
    }

    // MARK: shrinking

    func testShrunk_flatImage_staysFlat() throws {
        for value in [0, 1, 127, 254, 255] as [UInt8] {
            let shrunk = try image(1008, 756) { _, _ in value }.shrunk(toLongEdge: 400)
            XCTAssertEqual([shrunk.width, shrunk.height], [400, 300])
            XCTAssertEqual(Set(shrunk.pixels), [value])
        }
    }

    func testShrunk_byAThirdOfAPixel_weighsPartlyCoveredPixels() throws {
        // 7×5 → 3×2: each output pixel covers 7/3 columns and 5/2 rows (checked by hand).
        let source = image(7, 5) { x, y in UInt8(x * 7 + y * 49) }
        let result = try source.pixels.withUnsafeBytes { bytes throws(ImageError) in
            try PixelData(width: 7, height: 5, bands: 1, bytes: bytes).shrunk(toWidth: 3, height: 2)
        }
        XCTAssertEqual(result, [44, 60, 76, 162, 178, 194])
    }

    func testShrunk_rgb_keepsTheBandsApart() throws {
        // Red 200, green 100, blue 50 everywhere.
        let rgb = [UInt8](repeating: 0, count: 64 * 48 * 3).enumerated().map { [200, 100, 50][$0.offset % 3] as UInt8 }
        let shrunk = try rgb.withUnsafeBytes { bytes throws(ImageError) in
            try PixelData(width: 64, height: 48, bands: 3, bytes: bytes).shrunk(toWidth: 25, height: 19)
        }
        XCTAssertEqual(shrunk.count, 25 * 19 * 3)
        XCTAssertEqual(Array(shrunk.prefix(6)), [200, 100, 50, 200, 100, 50])
        XCTAssertEqual(Array(shrunk.suffix(3)), [200, 100, 50])
    }

    func testShrunk_smallerThanTheEdge_isUnchanged() throws {
        let source = image(30, 20) { x, _ in UInt8(x) }
        XCTAssertEqual(try source.shrunk(toLongEdge: 1024).pixels, source.pixels)
    }

    func testShrunk_extremeAspectRatio_doesNotOverflowTheStack() throws {
        // A 1×3,000,000 strip shrunk to one pixel averages 3,000,001 rows: their weights used to be a
        // variable-length array on the stack (12 MB), which killed the process.
        let strip = GreyImage(width: 1, height: 3_000_000, pixels: [UInt8](repeating: 90, count: 3_000_000))
        let shrunk = try strip.shrunk(toLongEdge: 1)
        XCTAssertEqual([shrunk.width, shrunk.height], [1, 1])
        XCTAssertEqual(shrunk.pixels, [90])
    }

    func testGreyBand_ofRGB_isGreen() {
        let rgb: [UInt8] = [10, 20, 30, 40, 50, 60]
        let grey = rgb.withUnsafeBytes { PixelData(width: 2, height: 1, bands: 3, bytes: $0).greyBand() }
        XCTAssertEqual(grey.pixels, [20, 50])
    }

    // MARK: lightness

    func testLightness_halfInk_isAboutAHalf() {
        let bars = image(60, 40) { x, _ in (x / 3).isMultiple(of: 2) ? 10 : 240 }
        XCTAssertEqual(bars.lightness(of: PixelBox(x: 0, y: 0, width: 60, height: 40)), 0.5, accuracy: 0.05)
    }

    func testLightness_fewMarksOrNone_isOne() {
        let sparse = image(60, 40) { x, y in y == 20 && x % 4 == 0 ? 0 : 250 }
        XCTAssertEqual(sparse.lightness(of: PixelBox(x: 0, y: 0, width: 60, height: 40)), 1)
        XCTAssertEqual(image(10, 10) { _, _ in 77 }.lightness(of: PixelBox(x: 0, y: 0, width: 10, height: 10)), 1)
    }

    // MARK: sharpened

    func testSharpened_isThePixelPlusOneAndAHalfTimesItsDifferenceFromThe5x5Mean_clampedAtTheEdges() {
        // The 5×5 mean of the rows' 5-wide means (each rounded down), edges repeated: worked out
        // here pixel by pixel, on an image of uneven size so that no row or column is special.
        let source = image(23, 17) { x, y in UInt8((x * 37 + y * y * 11 + x * y) % 256) }
        let at = { (x: Int, y: Int) in self.pixel(source, min(max(x, 0), 22), min(max(y, 0), 16)) }
        let rowMean = { (x: Int, y: Int) in (-2...2).reduce(0) { $0 + at(x + $1, y) } / 5 }
        let sharpened = source.sharpened()
        for y in 0..<17 {
            for x in 0..<23 {
                let mean = (-2...2).reduce(0) { $0 + rowMean(x, min(max(y + $1, 0), 16)) } / 5
                let expected = min(255, max(0, at(x, y) + (at(x, y) - mean) * 3 / 2))
                XCTAssertEqual(pixel(sharpened, x, y), expected, "(\(x), \(y))")
            }
        }
    }
}
