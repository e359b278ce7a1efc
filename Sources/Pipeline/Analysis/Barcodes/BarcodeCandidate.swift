import Imaging
import Foundation

/// A place in a photo that looks like a barcode, and how to turn it so its bars stand upright.
struct BarcodeCandidate: Equatable, CustomStringConvertible {
    /// In the pixels of the image the locator looked at, with a margin for the quiet zone.
    var box: PixelBox
    /// Degrees (libvips' sense) that turn the dominant gradient horizontal, bars vertical; 0 for 2-D codes.
    var angle: Double
    /// True for a 1-D pattern (one dominant edge direction), false for a 2-D one (QR).
    var isLinear: Bool
    /// Mean gradient energy, for ranking.
    var strength: Double

    /// For the trace: where, which kind, and how it is turned.
    var description: String {
        "(\(isLinear ? "bars" : "2-D") at \(box)"
            + (isLinear ? String(format: ", turned %.0f°)", angle) : ")")
    }
}
