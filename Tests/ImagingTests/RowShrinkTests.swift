import CImageOps
import Foundation
@testable import Imaging
import TestSupport
import XCTest

/// The area shrink fed rows a strip at a time (`ingest_row_shrink_*`), as libvips hands them over
/// while a photo that cannot shrink on load is decoded: it must give what shrinking the whole image
/// at once gives, whatever the strips.
final class RowShrinkTests: XCTestCase {
    /// `width` × `height` pixels of `bands` bands of noise.
    private func noise(_ width: Int, _ height: Int, bands: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<width * height * bands).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// The image shrunk to `newWidth` × `newHeight`, fed in strips of `strip` rows, and the band
    /// `band` it copied out on the way; nil when the shrink refused a strip or did not finish.
    private func shrunkInStrips(_ pixels: [UInt8], _ width: Int, _ height: Int, bands: Int, band: Int,
                                to newWidth: Int, _ newHeight: Int, strip: Int) -> (shrunk: [UInt8], grey: [UInt8])? {
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * bands)
        var grey = [UInt8](repeating: 0, count: width * height)
        let finished = out.withUnsafeMutableBufferPointer { out in
            grey.withUnsafeMutableBufferPointer { grey in
                pixels.withUnsafeBufferPointer { pixels -> Bool in
                    guard let shrink = ingest_row_shrink_new(Int32(width), Int32(height), Int32(bands), out.baseAddress,
                                                             Int32(newWidth), Int32(newHeight), grey.baseAddress, Int32(band))
                    else { return false }
                    defer { ingest_row_shrink_free(shrink) }
                    for top in stride(from: 0, to: height, by: strip) {
                        let count = min(strip, height - top)
                        guard ingest_row_shrink_take(pixels.baseAddress! + top * width * bands, width * bands, Int32(top),
                                                     Int32(count), UnsafeMutableRawPointer(shrink)) == 0
                        else { return false }
                    }
                    return ingest_row_shrink_finished(shrink) != 0
                }
            }
        }
        return finished ? (out, grey) : nil
    }

    func testTake_stripsOfAnyHeight_giveTheWholeImageShrunkAtOnce() throws {
        // Output sizes that divide the source evenly, that do not (a row of source shared by two
        // output rows), no shrink at all, and one pixel.
        for (width, height, bands) in [(103, 77, 3), (64, 48, 1), (40, 200, 3)] {
            let pixels = noise(width, height, bands: bands, seed: UInt64(width * height))
            for (newWidth, newHeight) in [(width / 2, height / 2), (width * 2 / 5, height * 3 / 7), (width, height), (1, 1)] {
                let whole = try pixels.withImageBytes { bytes throws(ImageError) in
                    try PixelData(width: width, height: height, bands: bands, bytes: bytes).shrunk(toWidth: newWidth, height: newHeight)
                }
                for strip in [1, 2, 5, 16, height] {
                    let label = "\(width)×\(height)×\(bands) → \(newWidth)×\(newHeight) in strips of \(strip)"
                    let fed = try XCTUnwrap(shrunkInStrips(pixels, width, height, bands: bands, band: bands - 1,
                                                           to: newWidth, newHeight, strip: strip), label)
                    XCTAssertEqual(fed.shrunk, whole, label)
                    XCTAssertEqual(fed.grey, stride(from: bands - 1, to: pixels.count, by: bands).map { pixels[$0] }, label)
                }
            }
        }
    }

    func testTake_identityShrink_copiesThePixels() throws {
        let pixels = noise(31, 17, bands: 3, seed: 5)
        XCTAssertEqual(shrunkInStrips(pixels, 31, 17, bands: 3, band: 1, to: 31, 17, strip: 4)?.shrunk, pixels)
    }

    func testTake_rowsOutOfOrderOrPastTheEnd_areRefused() throws {
        let pixels = noise(8, 8, bands: 1, seed: 9)
        var out = [UInt8](repeating: 0, count: 16)
        out.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { pixels in
                let shrink = ingest_row_shrink_new(8, 8, 1, out.baseAddress, 4, 4, nil, 0)!
                defer { ingest_row_shrink_free(shrink) }
                let context = UnsafeMutableRawPointer(shrink)
                XCTAssertEqual(ingest_row_shrink_take(pixels.baseAddress, 8, 2, 2, context), -1, "rows 0 and 1 not taken yet")
                XCTAssertEqual(ingest_row_shrink_take(pixels.baseAddress, 8, 0, 4, context), 0)
                XCTAssertEqual(ingest_row_shrink_finished(shrink), 0, "half the rows")
                XCTAssertEqual(ingest_row_shrink_take(pixels.baseAddress, 8, 0, 4, context), -1, "the same rows again")
                XCTAssertEqual(ingest_row_shrink_take(pixels.baseAddress, 8, 4, 5, context), -1, "a row past the end")
                XCTAssertEqual(ingest_row_shrink_take(pixels.baseAddress! + 32, 8, 4, 4, context), 0)
                XCTAssertNotEqual(ingest_row_shrink_finished(shrink), 0)
            }
        }
    }

    func testNew_badSizes_areRefused() {
        var out = [UInt8](repeating: 0, count: 64)
        out.withUnsafeMutableBufferPointer { out in
            XCTAssertNil(ingest_row_shrink_new(8, 8, 1, out.baseAddress, 9, 4, nil, 0), "wider than the source")
            XCTAssertNil(ingest_row_shrink_new(8, 8, 1, out.baseAddress, 4, 0, nil, 0), "no rows")
            XCTAssertNil(ingest_row_shrink_new(8, 8, 5, out.baseAddress, 4, 4, nil, 0), "five bands")
            XCTAssertNil(ingest_row_shrink_new(8, 8, 3, out.baseAddress, 4, 4, nil, 3), "band 3 of 3")
        }
    }

    func testGreyAndShrunk_libvipsImage_matchesTheShrinkOfItsPixels() throws {
        // Through libvips' own strips (vips_sink_disc), on an image tall enough for several.
        try Vips.start() // run alone, no test before has started libvips
        let (width, height) = (300, 1000)
        let pixels = noise(width, height, bands: 3, seed: 11)
        let whole = try pixels.withImageBytes { bytes throws(ImageError) in
            try PixelData(width: width, height: height, bands: 3, bytes: bytes).shrunk(toWidth: 120, height: 333)
        }
        let image = try pixels.withImageBytes { bytes throws(ImageError) in
            try VipsImage.upright(PixelData(width: width, height: height, bands: 3, bytes: bytes), orientation: 1)
        }
        let (grey, shrunk, bands) = try image.greyAndShrunk(toWidth: 120, height: 333)
        XCTAssertEqual(bands, 3)
        XCTAssertEqual(shrunk, whole)
        XCTAssertEqual([grey.width, grey.height], [width, height])
        XCTAssertEqual(grey.pixels, stride(from: 1, to: pixels.count, by: 3).map { pixels[$0] }, "the green band")
    }
}
