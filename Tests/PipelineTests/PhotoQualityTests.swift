import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

final class PhotoQualityTests: XCTestCase {
    private func flat(_ value: UInt8, width: Int = 32, height: Int = 24) -> GreyImage {
        GreyImage(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height))
    }

    /// 0/255 squares of one pixel: every interior Laplacian is ±4·255 = ±1020.
    private func checkerboard(width: Int = 10, height: Int = 10) -> GreyImage {
        GreyImage(width: width, height: height,
                  pixels: (0 ..< width * height).map { ($0 % width + $0 / width) % 2 == 0 ? 0 : 255 })
    }

    /// Grey levels 118…138 at random: a fine texture, sharp but not clipped to 1.
    private func noise(width: Int = 64, height: Int = 64) -> GreyImage {
        var random = SplitMix64(seed: 7)
        return GreyImage(width: width, height: height,
                         pixels: (0 ..< width * height).map { _ in UInt8(118 + random.next() % 21) })
    }

    /// `image` averaged over 3×3 neighbourhoods (the border kept as it is).
    private func boxBlurred(_ image: GreyImage) -> GreyImage {
        var pixels = image.pixels
        let w = image.width
        for y in 1 ..< image.height - 1 {
            for x in 1 ..< w - 1 {
                var sum = 0
                for dy in -1 ... 1 {
                    for dx in -1 ... 1 { sum += Int(image.pixels[(y + dy) * w + x + dx]) }
                }
                pixels[y * w + x] = UInt8(sum / 9)
            }
        }
        return GreyImage(width: w, height: image.height, pixels: pixels)
    }

    // MARK: Pixel metrics

    func testMeasuring_flatMidGrey_hasNoSharpnessNoContrastFullBrightness() {
        let quality = PhotoQuality(measuring: flat(128), barcodes: [])
        XCTAssertEqual(quality.sharpness, 0)
        XCTAssertEqual(quality.contrast, 0)
        XCTAssertEqual(quality.brightness, 1)
        XCTAssertEqual(quality.laplacianVariance, 0)
        XCTAssertEqual(quality.meanGrey, 128)
        XCTAssertEqual(quality.standardDeviation, 0)
    }

    func testMeasuring_checkerboard_isFullySharpAndContrasty() {
        let quality = PhotoQuality(measuring: checkerboard(), barcodes: [])
        XCTAssertEqual(quality.laplacianVariance, 1020 * 1020)
        XCTAssertEqual(quality.meanGrey, 127.5)
        XCTAssertEqual(quality.standardDeviation, 127.5)
        XCTAssertEqual(quality.sharpness, 1)
        XCTAssertEqual(quality.contrast, 1)
        XCTAssertEqual(quality.brightness, 1)
        XCTAssertEqual(quality.overall, 1, accuracy: 1e-12)
        XCTAssertEqual(quality.rating, .excellent)
    }

    func testMeasuring_allBlack_hasNoBrightness() {
        XCTAssertEqual(PhotoQuality(measuring: flat(0), barcodes: []).brightness, 0)
        XCTAssertEqual(PhotoQuality(measuring: flat(255), barcodes: []).brightness, 0)
    }

    func testBrightness_fallsLinearlyOutsideMidBand() {
        // 1 on 77…178, 0 at 13 and 242, linear between.
        XCTAssertEqual(PhotoQuality(measuring: flat(45), barcodes: []).brightness, 0.5)
        XCTAssertEqual(PhotoQuality(measuring: flat(210), barcodes: []).brightness, 0.5)
        XCTAssertEqual(PhotoQuality(measuring: flat(77), barcodes: []).brightness, 1)
        XCTAssertEqual(PhotoQuality(measuring: flat(178), barcodes: []).brightness, 1)
        XCTAssertEqual(PhotoQuality(measuring: flat(13), barcodes: []).brightness, 0)
    }

    func testMeasuring_blurredNoise_isLessSharpThanOriginal() {
        let original = PhotoQuality(measuring: noise(), barcodes: [])
        let blurred = PhotoQuality(measuring: boxBlurred(noise()), barcodes: [])
        XCTAssertGreaterThan(original.sharpness, 0.8)
        XCTAssertLessThan(original.sharpness, 1, "the texture is chosen not to clip")
        XCTAssertLessThan(blurred.sharpness, original.sharpness - 0.5)
        XCTAssertLessThan(blurred.laplacianVariance * 10, original.laplacianVariance)
    }

    func testMeasuring_sharpnessScale_isLogBetween20And1000() {
        // A vertical stripe pattern 0,a,0,a…: interior Laplacians are ±2a, so the variance is 4a².
        func stripes(_ a: UInt8) -> GreyImage {
            GreyImage(width: 10, height: 10, pixels: (0 ..< 100).map { $0 % 2 == 0 ? 0 : a })
        }
        // a = 5: v = 100 → log10(5)/log10(50) ≈ 0.411.
        XCTAssertEqual(PhotoQuality(measuring: stripes(5), barcodes: []).laplacianVariance, 100)
        XCTAssertEqual(PhotoQuality(measuring: stripes(5), barcodes: []).sharpness, log10(5) / log10(50), accuracy: 1e-12)
        // a = 2: v = 16, under 20: a soft picture scores 0.
        XCTAssertEqual(PhotoQuality(measuring: stripes(2), barcodes: []).sharpness, 0)
    }

    func testMeasuring_tinyImage_hasNoSharpnessButStillMeasuresGrey() {
        let quality = PhotoQuality(measuring: GreyImage(width: 2, height: 2, pixels: [0, 255, 255, 0]), barcodes: [])
        XCTAssertEqual(quality.sharpness, 0)
        XCTAssertEqual(quality.meanGrey, 127.5)
    }

    // MARK: Overall score

    func testOverall_withoutBarcode_rescalesPixelWeights() {
        var quality = PhotoQuality(measuring: flat(128), barcodes: [])
        quality.sharpness = 0.9
        quality.contrast = 0.4
        quality.brightness = 0.7
        XCTAssertNil(quality.decode)
        XCTAssertEqual(quality.overall, (0.3 * 0.9 + 0.2 * 0.4 + 0.1 * 0.7) / 0.6, accuracy: 1e-12)
    }

    func testOverall_withBarcode_weighsDecodeFourTenths() {
        var quality = PhotoQuality(measuring: flat(128), barcodes: [makeReading(.ean13, "4006381333931", quality: 3)])
        XCTAssertEqual(quality.decode, 0.5, "a linear code scores quality / 6")
        quality.sharpness = 0.9
        quality.contrast = 0.4
        quality.brightness = 0.7
        XCTAssertEqual(quality.overall, 0.4 * 0.5 + 0.3 * 0.9 + 0.2 * 0.4 + 0.1 * 0.7, accuracy: 1e-12)
    }

    func testDecode_qrReading_isFullConfidence() {
        let quality = PhotoQuality(measuring: flat(128), barcodes: [makeReading(.qr, "https://example.com", quality: 1)])
        XCTAssertEqual(quality.decode, 1)
    }

    func testDecode_bestOfSeveralReadings_clampedToOne() {
        let readings = [makeReading(.ean13, "4006381333931", quality: 2), makeReading(.code128, "A-1", quality: 4)]
        XCTAssertEqual(PhotoQuality(measuring: flat(128), barcodes: readings).decode ?? 0, 4.0 / 6, accuracy: 1e-12)
        let strong = [makeReading(.ean13, "4006381333931", quality: 40)]
        XCTAssertEqual(PhotoQuality(measuring: flat(128), barcodes: strong).decode, 1)
    }

    // MARK: Ratings

    func testRating_thresholds_belongToHigherBand() {
        XCTAssertEqual(Rating(score: 1), .excellent)
        XCTAssertEqual(Rating(score: 0.85), .excellent)
        XCTAssertEqual(Rating(score: 0.849_999), .good)
        XCTAssertEqual(Rating(score: 0.70), .good)
        XCTAssertEqual(Rating(score: 0.699_999), .fair)
        XCTAssertEqual(Rating(score: 0.50), .fair)
        XCTAssertEqual(Rating(score: 0.499_999), .poor)
        XCTAssertEqual(Rating(score: 0), .poor)
    }

    func testRating_followsOverall() {
        var quality = PhotoQuality(measuring: flat(128), barcodes: [])
        quality.sharpness = 0
        XCTAssertEqual(quality.overall, 0.1 / 0.6, accuracy: 1e-12)
        XCTAssertEqual(quality.rating, .poor)
    }
}
