import Foundation
package import Imaging
package import Vocabulary

/// How good a photo is, measured on its pixels, each part normalised to 0…1.
///
/// Measured on the greyscale image scaled so its long edge is at most `PhotoQuality.measureEdge`
/// pixels, so that photos of any resolution compare:
/// - sharpness: variance of the 4-neighbour Laplacian, v. Score `log10(v / 20) / log10(50)`,
///   clamped: 20 or less (a soft, out-of-focus picture) is 0, 1000 or more (crisp edges) is 1.
/// - contrast: RMS contrast, the standard deviation s of the grey levels. Score `s / 64`, clamped.
/// - brightness: mean grey level m. Score 1 for 77…178 (30–70 %), falling linearly to 0 at 13 and 242.
/// - decode: confidence of the best barcode read. QR codes pass Reed–Solomon checks (1.0); a linear
///   code scores `q / 6` of its ZBar quality q (scan lines that agreed), clamped.
///
/// overall = 0.4·decode + 0.3·sharpness + 0.2·contrast + 0.1·brightness. A photo with no barcode
/// (a package front) has no decode part: its overall is the other three with their weights
/// rescaled to sum to 1, so a sharp front photo is not marked down for what it cannot show.
package struct PhotoQuality: Sendable, Equatable {
    package var sharpness: Double
    package var contrast: Double
    package var brightness: Double
    package var decode: Double?
    /// Raw measurements behind the scores, for `show`.
    package var laplacianVariance: Double
    package var meanGrey: Double
    package var standardDeviation: Double

    /// The long edge, in pixels, of the image the metrics are measured on.
    package static let measureEdge = 1024

    package var overall: Double {
        let pixels = 0.3 * sharpness + 0.2 * contrast + 0.1 * brightness
        guard let decode else { return pixels / 0.6 }
        return 0.4 * decode + pixels
    }

    package var rating: Rating { Rating(score: overall) }

    /// Measures `image` (which should already be at most `measureEdge` on its long side).
    package init(measuring image: GreyImage, barcodes: [BarcodeReading]) {
        let (mean, deviation) = Self.meanAndDeviation(image)
        laplacianVariance = Self.laplacianVariance(image)
        meanGrey = mean
        standardDeviation = deviation
        sharpness = Self.clamp(log10Safe(laplacianVariance / 20) / log10Safe(50))
        contrast = Self.clamp(deviation / 64)
        brightness = Self.brightnessScore(mean)
        decode = barcodes.map(Self.decodeScore).max()
    }

    static func decodeScore(_ reading: BarcodeReading) -> Double {
        reading.symbology == .qr ? 1 : clamp(Double(reading.quality) / 6)
    }

    static func brightnessScore(_ mean: Double) -> Double {
        switch mean {
        case 77...178: 1
        case ..<77: clamp((mean - 13) / 64)
        default: clamp((242 - mean) / 64)
        }
    }

    static func clamp(_ value: Double) -> Double { min(1, max(0, value.isFinite ? value : 0)) }

    // Both sums are exact integers (a 1024-px image's squared Laplacians stay below 2^40).
    static func meanAndDeviation(_ image: GreyImage) -> (Double, Double) {
        guard !image.pixels.isEmpty else { return (0, 0) }
        let (sum, squares) = image.levelSums()
        let count = Double(image.pixels.count)
        let mean = Double(sum) / count
        return (mean, (max(0, Double(squares) / count - mean * mean)).squareRoot())
    }

    static func laplacianVariance(_ image: GreyImage) -> Double {
        let w = image.width, h = image.height
        guard w >= 3, h >= 3 else { return 0 }
        let (sum, squares) = image.laplacianSums()
        let count = Double((w - 2) * (h - 2))
        let mean = Double(sum) / count
        return Double(squares) / count - mean * mean
    }
}

private func log10Safe(_ value: Double) -> Double {
    value > 0 ? log10(value) : -.infinity
}
