import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

/// Real photos made harder, as another phone or a worse moment would have taken them: blurred, or
/// dimmer and flatter. ZBar misreads such codes consistently, on few lines or on dozens, and one
/// misread in ten passes the check digit; every code the reader reports must still be the photo's
/// own (issue 11: "no false reads, ever"). The wrong codes still read here are listed in
/// `knownMisreads`; any other fails this test. It guards against new misreads only: these copies,
/// made in memory, gave no more wrong codes before each read needed a second opinion. The copies
/// that did, saved as JPEG files (20 wrong codes before, 3 after), are bench/perturbed.py's.
final class RealPhotoMisreadTests: XCTestCase {
    /// Wrong codes still read on these copies (docs/benchmarks.md, *Harder copies*): a UPC-E
    /// misread that no second decoder reads and the template reader cannot judge (it knows the
    /// EAN-13 and UPC-A layouts only), confirmed by ZBar at two scales, which share its misjudged
    /// bar widths; and an EAN-13 misread on 28 lines that zxing-cpp cannot read and the template
    /// reader cannot decide.
    static let knownMisreads: Set = ["blurred upca-2-39.webp: upcE 022121000066", "dimmed upca-4-1.webp: ean13 9074932437075"]

    func testRead_blurredAndDimmedRealPhotos_readNoWrongCode() throws {
        let reader = BarcodeReader(symbologies: Set(Symbology.allCases))
        var wrong: [String] = [], right = 0
        for photo in try RealPhotos.withCodes() where photo.group.hasPrefix("ean13") || photo.group.hasPrefix("upc") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.path)))
            let decoded = try PhotoDecoder(maxPixels: 100_000_000, minSide: 8, thumbnailWidth: 400).decode(bytes)
            for (name, copy) in [("blurred", decoded.overview.blurred(sigma: 0.9)), ("dimmed", decoded.overview.dimmed())] {
                // The copy is the overview; a region needing full resolution is read from the
                // original, as sharp as it was.
                let reads = try reader.read(overview: copy, shrink: decoded.shrink) { try decoded.fullResolution($0, from: bytes) }
                right += reads.contains { photo.isRead(text: $0.text, gtin13: $0.gtin13) } ? 1 : 0
                wrong += reads.filter { !photo.isRead(text: $0.text, gtin13: $0.gtin13) }
                    .map { "\(name) \((photo.path as NSString).lastPathComponent): \($0.symbology) \($0.text)" }
            }
        }
        XCTAssertEqual(Set(wrong).subtracting(Self.knownMisreads), [], "codes that are not the photo's own")
        // The copies are harder, not unreadable: most codes are still read.
        print("RealPhotoMisreadTests: \(right) copies read their code")
        XCTAssertGreaterThan(right, 100)
    }
}

extension GreyImage {
    /// A Gaussian blur of `sigma` pixels, as a phone's shake or focus gives (edges clamped).
    func blurred(sigma: Double) -> GreyImage {
        let radius = Int((3 * sigma).rounded(.up))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        func pass(_ source: [Double], along dx: Int, _ dy: Int) -> [Double] {
            (0..<height).flatMap { y in
                (0..<width).map { x in
                    zip(-radius...radius, weights).reduce(0.0) { sum, tap in
                        let sx = min(max(x + tap.0 * dx, 0), width - 1), sy = min(max(y + tap.0 * dy, 0), height - 1)
                        return sum + tap.1 * source[sy * width + sx]
                    } / total
                }
            }
        }
        let smoothed = pass(pass(pixels.map(Double.init), along: 1, 0), along: 0, 1)
        return GreyImage(width: width, height: height, pixels: smoothed.map { UInt8(min(255, max(0, $0.rounded()))) })
    }

    /// Darker and flatter: 65 % of the light, and 70 % of the contrast around the mean, as under a
    /// shelf's shadow.
    func dimmed() -> GreyImage {
        let darker = pixels.map { Double($0) * 0.65 }
        let mean = darker.reduce(0, +) / Double(max(1, darker.count))
        return GreyImage(width: width, height: height, pixels: darker.map { UInt8(min(255, max(0, (mean + 0.7 * ($0 - mean)).rounded()))) })
    }
}
