import CImageOps
import Foundation
@testable import Imaging
import TestSupport
import XCTest

/// The Lanczos resample of thumbnails (`ingest_resample`, `ingest_row_resample_*`): Lanczos' own
/// values, the same whatever the strips, flat stays flat, and a JPEG's shrink on load made up for.
final class RowResampleTests: XCTestCase {
    /// `width` × `height` pixels of `bands` bands of noise.
    private func noise(_ width: Int, _ height: Int, bands: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<width * height * bands).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private func resampled(_ pixels: [UInt8], _ width: Int, _ height: Int, bands: Int, to newWidth: Int, _ newHeight: Int,
                           sourceShrink: Int = 1) throws -> [UInt8] {
        try pixels.withImageBytes { bytes throws(ImageError) in
            try PixelData(width: width, height: height, bands: bands, bytes: bytes)
                .resampled(toWidth: newWidth, height: newHeight, sourceShrink: sourceShrink)
        }
    }

    /// The image resampled to `newWidth` × `newHeight`, fed in strips of `strip` rows, and the band
    /// `band` it copied out on the way; nil when the resample refused a strip or did not finish.
    private func resampledInStrips(_ pixels: [UInt8], _ width: Int, _ height: Int, bands: Int, band: Int,
                                   to newWidth: Int, _ newHeight: Int, sourceShrink: Int, strip: Int) -> (out: [UInt8], grey: [UInt8])? {
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * bands)
        var grey = [UInt8](repeating: 0, count: width * height)
        let finished = out.withUnsafeMutableBufferPointer { out in
            grey.withUnsafeMutableBufferPointer { grey in
                pixels.withUnsafeBufferPointer { pixels -> Bool in
                    guard let resample = ingest_row_resample_new(Int32(width), Int32(height), Int32(bands), out.baseAddress,
                                                                 Int32(newWidth), Int32(newHeight), Int32(sourceShrink),
                                                                 grey.baseAddress, Int32(band))
                    else { return false }
                    defer { ingest_row_resample_free(resample) }
                    for top in stride(from: 0, to: height, by: strip) {
                        let count = min(strip, height - top)
                        guard ingest_row_resample_take(pixels.baseAddress! + top * width * bands, width * bands, Int32(top),
                                                       Int32(count), UnsafeMutableRawPointer(resample)) == 0
                        else { return false }
                    }
                    return ingest_row_resample_finished(resample) != 0
                }
            }
        }
        return finished ? (out, grey) : nil
    }

    /// Lanczos with three lobes, computed the plain way: output pixel i (of n from m) centred on
    /// source position (i + ½) × m / n, taps past the edges left out and the rest scaled to a sum of 1.
    private func lanczosWeights(from source: Int, to target: Int) -> [[Double]] {
        let ratio = Double(source) / Double(target)
        return (0..<target).map { i in
            let centre = (Double(i) + 0.5) * ratio
            var weights = (0..<source).map { k -> Double in
                let x = (Double(k) + 0.5 - centre) / ratio
                if x == 0 { return 1 }
                guard abs(x) < 3 else { return 0 }
                return 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x)
            }
            let total = weights.reduce(0, +)
            for k in weights.indices { weights[k] /= total }
            return weights
        }
    }

    func testResample_anOriginal_givesLanczosOwnValues() throws {
        // Shrinks under 4, which Lanczos makes alone; three bands and one.
        for (width, height, bands, newWidth, newHeight) in [(103, 77, 3, 41, 30), (64, 48, 1, 33, 25), (40, 90, 3, 20, 45)] {
            let pixels = noise(width, height, bands: bands, seed: UInt64(width + height))
            let ours = try resampled(pixels, width, height, bands: bands, to: newWidth, newHeight)
            let xs = lanczosWeights(from: width, to: newWidth), ys = lanczosWeights(from: height, to: newHeight)
            var worst = 0.0
            for oy in 0..<newHeight {
                for ox in 0..<newWidth {
                    for band in 0..<bands {
                        var sum = 0.0
                        for y in 0..<height where ys[oy][y] != 0 {
                            for x in 0..<width where xs[ox][x] != 0 {
                                sum += ys[oy][y] * xs[ox][x] * Double(pixels[(y * width + x) * bands + band])
                            }
                        }
                        worst = max(worst, abs(min(max(sum, 0), 255) - Double(ours[(oy * newWidth + ox) * bands + band])))
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 0.51, "\(width)×\(height)×\(bands) → \(newWidth)×\(newHeight): off by \(worst)")
        }
    }

    func testTake_stripsOfAnyHeight_giveTheWholeImageResampledAtOnce() throws {
        // Shrinks Lanczos makes alone, shrinks of 4 or more (averaged first), no shrink, one pixel;
        // with and without a shrink on load to make up for.
        for (width, height, bands) in [(103, 77, 3), (64, 48, 1), (40, 200, 3)] {
            let pixels = noise(width, height, bands: bands, seed: UInt64(width * height))
            for (newWidth, newHeight) in [(width / 2, height / 2), (width * 2 / 5, height * 3 / 7), (width / 9, height / 5),
                                          (width, height), (1, 1)] {
                for sourceShrink in [1, 4] {
                    let whole = try resampled(pixels, width, height, bands: bands, to: newWidth, newHeight, sourceShrink: sourceShrink)
                    for strip in [1, 2, 5, 16, height] {
                        let label = "\(width)×\(height)×\(bands) → \(newWidth)×\(newHeight), shrunk \(sourceShrink), strips of \(strip)"
                        let fed = try XCTUnwrap(resampledInStrips(pixels, width, height, bands: bands, band: bands - 1, to: newWidth,
                                                                  newHeight, sourceShrink: sourceShrink, strip: strip), label)
                        XCTAssertEqual(fed.out, whole, label)
                        XCTAssertEqual(fed.grey, stride(from: bands - 1, to: pixels.count, by: bands).map { pixels[$0] }, label)
                    }
                }
            }
        }
    }

    func testResample_flatImage_staysFlatToTheEdges() throws {
        for (width, height, newWidth, newHeight) in [(90, 70, 41, 30), (1000, 13, 7, 5), (50, 50, 50, 50), (9, 9, 1, 1)] {
            for sourceShrink in [1, 4, 8] {
                let flat = [UInt8](repeating: 0, count: width * height).flatMap { _ in [200, 17, 96] as [UInt8] }
                let out = try resampled(flat, width, height, bands: 3, to: newWidth, newHeight, sourceShrink: sourceShrink)
                XCTAssertEqual(out, [UInt8](repeating: 0, count: newWidth * newHeight).flatMap { _ in [200, 17, 96] as [UInt8] },
                               "\(width)×\(height) → \(newWidth)×\(newHeight), shrunk \(sourceShrink)")
            }
        }
    }

    func testResample_ofAQuarterSizeDecode_makesUpForItsAveraging() throws {
        // Stripes at 0.4 cycles an output pixel, 756 → 400 as a 12 MP portrait photo's thumbnail
        // from its quarter-size decode: each source pixel the mean of four of the original's, or
        // the original sampled at their centre. The mean loses 7 % of the stripes' contrast here.
        let (width, height, newWidth, newHeight) = (756, 64, 400, 34)
        let frequency = 0.4 * Double(newWidth) / Double(width) / 4 // cycles an original pixel
        func stripes(_ value: (Int) -> Double) -> [UInt8] {
            (0..<height).flatMap { _ in (0..<width).map { UInt8((128 + 100 * value($0)).rounded()) } }
        }
        let averaged = stripes { i in (0..<4).map { sin(2 * .pi * frequency * (Double(4 * i + $0) + 0.5)) }.reduce(0, +) / 4 }
        let sampled = stripes { i in sin(2 * .pi * frequency * Double(4 * i + 2)) }
        func contrast(_ pixels: [UInt8]) -> Double {
            let inner = (newHeight / 4..<3 * newHeight / 4).flatMap { y in (20..<newWidth - 20).map { Double(pixels[y * newWidth + $0]) } }
            let mean = inner.reduce(0, +) / Double(inner.count)
            return (inner.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(inner.count)).squareRoot()
        }
        let reference = contrast(try resampled(sampled, width, height, bands: 1, to: newWidth, newHeight))
        let plain = contrast(try resampled(averaged, width, height, bands: 1, to: newWidth, newHeight)) / reference
        let madeUp = contrast(try resampled(averaged, width, height, bands: 1, to: newWidth, newHeight, sourceShrink: 4)) / reference
        XCTAssertLessThan(plain, 0.95, "the averaging's loss, not made up for")
        XCTAssertEqual(madeUp, 1, accuracy: 0.02, "made up for")
    }

    func testNew_badSizes_areRefused() {
        var out = [UInt8](repeating: 0, count: 64)
        out.withUnsafeMutableBufferPointer { out in
            XCTAssertNil(ingest_row_resample_new(8, 8, 1, out.baseAddress, 9, 4, 1, nil, 0), "wider than the source")
            XCTAssertNil(ingest_row_resample_new(8, 8, 1, out.baseAddress, 4, 0, 1, nil, 0), "no rows")
            XCTAssertNil(ingest_row_resample_new(8, 8, 5, out.baseAddress, 4, 4, 1, nil, 0), "five bands")
            XCTAssertNil(ingest_row_resample_new(8, 8, 3, out.baseAddress, 4, 4, 1, nil, 3), "band 3 of 3")
            XCTAssertNil(ingest_row_resample_new(8, 8, 3, out.baseAddress, 4, 4, 0, nil, 0), "a shrink of 0")
        }
    }
}
