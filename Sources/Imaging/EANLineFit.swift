internal import CImageOps

/// How well each EAN-13 / UPC-A digit pattern fits each digit place along one line across a code's
/// bars, under the best placement of the code on the line (see `ingest_ean_fit_line`); or each
/// UPC-E digit pattern (`upcE`: its six places are laid out as an EAN-13's left half).
package struct EANLineFit: Sendable {
    /// Per left-half place (6 × 20): the cost of digits 0–9 in set A, then 0–9 in set B. A UPC-E's
    /// six places, when fitted as one.
    package var left: [Float]
    /// Per right-half place (6 × 10): the cost of digits 0–9 in set C; all 1 for a UPC-E.
    package var right: [Float]
    /// The summed cost of the best digit at every place: 0 is a perfect fit, 12 (a UPC-E's 6) none at all.
    package var cost: Double

    /// How a code is placed on each line: an EAN-13's or UPC-A's 95 modules as one, or each half
    /// alone, or as one seen at an angle (`perspective`: module widths growing across the code);
    /// or a UPC-E's 51.
    package enum Layout: Sendable, Hashable {
        case whole, halves, perspective, upcE

        /// The mode of `ingest_ean_fit_line`.
        var mode: Int32 {
            switch self {
            case .whole: 0
            case .halves: 1
            case .upcE: 2
            case .perspective: 3
            }
        }

        /// From the first bar's edge to the last.
        package var modules: Double { self == .upcE ? 51 : 95 }
        /// The digit places fitted.
        package var places: Int { self == .upcE ? 6 : 12 }
    }

    /// Fits the code to `darkness` (one value per pixel, ink high) whose first and last bar edges
    /// are near `firstEdge` and `lastEdge`; nil when the code does not fit inside the line.
    /// `.halves`: each half of the code is placed on the line alone (a code on a curved or folded
    /// package, one half stretched against the other).
    package init?(darkness: [Float], firstEdge: Double, lastEdge: Double, layout: Layout = .whole) {
        self.init(darkness: darkness, firstEdge: firstEdge, lastEdge: lastEdge, layout: layout, portable: false)
    }

    /// `portable`: with the loop every CPU runs, not the fastest this one has (AVX2). The costs
    /// are the same, bit for bit: the reader's decisions do not depend on the CPU (the tests
    /// compare the two).
    init?(darkness: [Float], firstEdge: Double, lastEdge: Double, layout: Layout, portable: Bool) {
        var left = [Float](repeating: 1, count: 120), right = [Float](repeating: 1, count: 60)
        let cost = darkness.withUnsafeBufferPointer { profile in
            left.withUnsafeMutableBufferPointer { left in
                right.withUnsafeMutableBufferPointer { right in
                    ingest_ean_fit_line(profile.baseAddress, Int32(profile.count), firstEdge, lastEdge, layout.mode, portable ? 1 : 0,
                                        left.baseAddress, right.baseAddress)
                }
            }
        }
        guard cost >= 0 else { return nil }
        (self.left, self.right, self.cost) = (left, right, cost)
    }
}
