import Foundation
import Imaging
import Vocabulary

/// The third decoder, for EAN-13 and UPC-A codes too blurred or too small for the other two: it
/// fits each digit's pattern, blurred, to the grey levels along lines across the bars (deformable
/// templates, after Gallo and Manduchi, "Reading 1D barcodes with mobile phones using deformable
/// templates", 2011).
///
/// ZBar and zxing-cpp first find the edge of every bar; on a blurred code, or one with about a
/// pixel per module, narrow bars and spaces merge and those edges are not there to find, but what
/// each digit looks like blurred still fits one pattern far better than the others. Evidence from
/// many lines is summed before any digit is chosen, so no single line has to be readable.
///
/// A read counts only when it is unambiguous at every digit and at the first digit's parity, and
/// a half of the bars read apart gives the same code (see `accepts`).
struct TemplateReader {
    /// One decision: the code and how clear it was.
    struct Decision: Equatable {
        /// 13 digits; a UPC-A with its leading 0.
        var code: String
        var lines: Int
        /// The least difference, per line, between the chosen pattern and the next best at any place.
        var margin: Float
        /// The same between the chosen parity pattern of the left half (the EAN-13's first digit)
        /// and the next best.
        var parityMargin: Float
        /// Mean cost of the chosen patterns (0 is a perfect fit, 1 none).
        var cost: Float
    }

    /// The layouts it knows: it judges and reads these codes.
    static let symbologies: Set<Symbology> = [.ean13, .upcA]
    /// And a UPC-E's, which it only confirms (`BarcodeReader.TemplateEvidence.verdict`): its six
    /// places are laid out as an EAN-13's left half, between other guards.
    static let confirmed: Set<Symbology> = symbologies.union([.upcE])

    typealias Layout = EANLineFit.Layout

    /// Lines across the bars: this many, evenly from 15 % to 85 % of the height.
    static let lineCount = 15
    /// A line whose best fit costs more than this per digit crosses no code (or the digits under it).
    static let maximumLineCost = 0.35

    /// The code in `upright` (bars vertical), when it counts on its own and is of `symbologies`:
    /// the whole code placed on each line as one, else each half alone (`ways`).
    func read(_ upright: GreyImage, symbologies: Set<Symbology> = Self.symbologies) -> BarcodeReading? {
        let asOne = ways(upright)
        guard !asOne.isEmpty,
              let whole = asOne.first.flatMap(Self.accepted) ?? ways(upright, .halves).first.flatMap(Self.accepted)
        else { return nil }
        return Self.reading(whole.code, lines: whole.lines, box: PixelBox(x: 0, y: 0, width: upright.width, height: upright.height),
                            symbologies: symbologies)
    }

    /// `code` (13 digits) as ZBar would report it with `symbologies` enabled: a UPC-A when it starts
    /// with 0 and UPC-A is enabled, else an EAN-13 when that is; nil when neither is.
    static func reading(_ code: String, lines: Int, box: PixelBox, symbologies: Set<Symbology> = Self.symbologies) -> BarcodeReading? {
        if code.first == "0", symbologies.contains(.upcA) {
            return BarcodeReading(symbology: .upcA, text: String(code.dropFirst()), gtin13: code, quality: lines, box: box)
        }
        guard symbologies.contains(.ean13) else { return nil }
        return BarcodeReading(symbology: .ean13, text: code, gtin13: code, quality: lines, box: box)
    }

    /// The least margin at every place that counts. Measured on ../shared/realphotos, reading every
    /// photo whether or not another decoder could (175 photos, 183 regions): no wrong decision
    /// reached 0.094, with or without a valid check digit (the highest: one label photographed four
    /// times, its thin bars read as a 7 for a 1), so a wrong read must get past this margin and
    /// then past the check digit, which stops nine in ten of the rest.
    static let minimumMargin: Float = 0.12
    /// The least margin of the first digit's parity pattern (right decisions: 0.2 and more; wrong
    /// ones down to 0.01).
    static let minimumParityMargin: Float = 0.2

    /// True when `whole` counts: a valid check digit, clear at every place and at the parity, and
    /// the same code from at least one half of the lines read alone, neither half giving another
    /// valid code.
    static func accepts(_ whole: Decision, _ upper: Decision?, _ lower: Decision?) -> Bool {
        let halves = [upper, lower].compactMap { $0?.code }
        return GTIN.hasValidCheckDigit(whole.code) && whole.margin >= minimumMargin
            && whole.parityMargin >= minimumParityMargin && halves.contains(whole.code)
            && !halves.contains { $0 != whole.code && GTIN.hasValidCheckDigit($0) }
    }

    /// The decision of the better way of a region, when it counts on its own (`accepts`).
    static func accepted(_ way: Way) -> Decision? {
        guard let whole = way.whole.decision, accepts(whole, way.upper?.decision, way.lower?.decision) else { return nil }
        return whole
    }

    /// The lines' evidence read one way: all of them, the upper half's and the lower half's.
    struct Way {
        var whole: Costs
        var upper: Costs?
        var lower: Costs?
    }

    /// The lines' evidence both ways, the better fitting first: the bars' direction does not tell
    /// which way up a code is. `.halves`: each half of the code is placed on each line alone,
    /// from either end (`EANLineFit`): on a curved or folded package one half is stretched against
    /// the other, and one placement of the whole code puts the fit off the bars of both halves
    /// near the centre. Only where the whole placement reads nothing, and fits a code at all: on a
    /// flat code the freer fit is less sure of its digits (a clear code's least margin is 0.11
    /// against 0.15 placed whole), and on print that no placement of the whole code fits on the
    /// middle line, where there is no code, it only costs time (run everywhere, it nearly doubles
    /// the fit's share of the 12 MP corpus's CPU). `.upcE`: the code is placed as a UPC-E.
    func ways(_ upright: GreyImage, _ layout: Layout = .whole) -> [Way] {
        var lines = (0..<Self.lineCount).map { index in
            Self.darkness(upright, row: Int((0.15 + 0.7 * Double(index) / Double(Self.lineCount - 1)) * Double(upright.height)))
        }
        let half = Self.lineCount / 2
        guard var ends = Self.ends(lines.map { Self.extent(of: $0, modules: layout.modules) }, modules: layout.modules) else { return [] }
        // About two pixels per module are enough, and the fit's cost grows with the pixels.
        let factor = Int((ends[half].1 - ends[half].0) / layout.modules / 2)
        if factor >= 2 {
            lines = lines.map { Self.shrunk($0, by: factor) }
            ends = ends.map { ($0.0 / Double(factor), $0.1 / Double(factor)) }
        }
        let width = Double(lines[0].count - 1)
        let forward = { (index: Int) in Self.fit(lines[index], ends[index].0, ends[index].1, layout) }
        let backward = { (index: Int) in
            Self.fit(lines[index].reversed(), width - ends[index].1, width - ends[index].0, layout)
        }
        // A region whose middle line fits a code neither way holds none (most regions that reach
        // here are print, not codes): two fits instead of thirty.
        let middleFits = (forward(half), backward(half))
        guard middleFits.0 != nil || middleFits.1 != nil else { return [] }
        let ways = [lines.indices.map { $0 == half ? middleFits.0 : forward($0) },
                    lines.indices.map { $0 == half ? middleFits.1 : backward($0) }]
            .compactMap { fits -> Way? in
                guard let whole = Costs(fits.compactMap { $0 }, layout) else { return nil }
                return Way(whole: whole, upper: Costs(fits[..<half].compactMap { $0 }, layout),
                           lower: Costs(fits[half...].compactMap { $0 }, layout))
            }
        // The lower cost of the decision (which keeps to the parity patterns a code can have, so a
        // code read backwards fits worse), unless it rests on less than half the other's lines.
        guard ways.count == 2 else { return ways }
        let (a, b) = (ways[0].whole, ways[1].whole)
        let firstBetter = a.lines * 2 < b.lines ? false
            : (b.lines * 2 < a.lines ? true : (a.decision?.cost ?? 1) <= (b.decision?.cost ?? 1))
        return firstBetter ? ways : ways.reversed()
    }

    /// What the template reader says of a code another decoder read.
    enum Verdict {
        /// Every place's pattern is the best or as good as (`confirmingShortfall`).
        case confirms
        /// Some place's pattern fits clearly worse than another (`AcceptanceRules.contradictingShortfall`).
        case contradicts
        case undecided
    }

    /// A place's pattern within this of the best, per line, agrees with it.
    static let confirmingShortfall: Float = 0.01

    /// The verdict on `code` (13 digits, a UPC-A with its leading 0) from the ways of one region.
    /// It confirms when one way that fits a code at all (5 lines, mean cost up to
    /// `maximumLineCost`) has the code's pattern best, or as good as, at every place. It
    /// contradicts only when the better way fits well (8 lines, mean cost up to 0.25) and no way
    /// comes within `contradictingShortfall` (fitted: `AcceptanceRules`) of the code at every place.
    ///
    /// A contradiction is weaker evidence than it looks: on generated crops photographed at an
    /// angle (module widths growing across the code, which the fit models only in part) the fit
    /// drifted off the bars and contradicted right codes on 17 crops of 600. So callers let it
    /// overrule one decoder's read, never a code ZBar and zxing-cpp both read.
    static func verdict(on code: String, _ ways: [Way], contradictingShortfall: Float) -> Verdict {
        let worst = ways.map { way in (way, way.whole.shortfalls(of: code)?.max() ?? .infinity) }
        if worst.contains(where: { way, shortfall in
            shortfall <= confirmingShortfall && way.whole.lines >= 5 && Double(way.whole.meanCost) <= maximumLineCost
        }) {
            return .confirms
        }
        guard let best = ways.first, best.whole.lines >= 8, best.whole.meanCost <= 0.25,
              worst.allSatisfy({ $0.1 >= contradictingShortfall }) else { return .undecided }
        return .contradicts
    }

    /// The best fit of the code to one line, when it fits at all.
    static func fit(_ line: [Float], _ first: Double, _ last: Double, _ layout: Layout = .whole) -> EANLineFit? {
        guard let fit = EANLineFit(darkness: line, firstEdge: first, lastEdge: last, layout: layout),
              fit.cost / Double(layout.places) <= maximumLineCost else { return nil }
        return fit
    }

    /// The EAN-13 first digit's parity patterns of the left half (A = false, B = true).
    static let parities: [[Bool]] = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB",
                                     "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA"].map { $0.map { $0 == "B" } }

    /// The UPC-E parity patterns of number system 0 by check digit (A = false, B = true); number
    /// system 1 has each inverted.
    static let upcEParities: [[Bool]] = ["BBBAAA", "BBABAA", "BBAABA", "BBAAAB", "BABBAA",
                                         "BAABBA", "BAAABB", "BABABA", "BABAAB", "BAABAB"].map { $0.map { $0 == "B" } }

    /// The costs of many lines summed: the evidence for each pattern at each place.
    struct Costs {
        /// 6 places × (set A 0–9, set B 0–9): an EAN-13's left half, or a UPC-E's six places.
        var left: [Float]
        /// 6 places × set C 0–9; unused for a UPC-E.
        var right: [Float]
        var lines: Int
        var layout: Layout

        init?(_ fits: [EANLineFit], _ layout: Layout = .whole) {
            self.layout = layout
            guard !fits.isEmpty else { return nil }
            left = [Float](repeating: 0, count: 120)
            right = [Float](repeating: 0, count: 60)
            for fit in fits {
                for i in 0..<120 { left[i] += fit.left[i] }
                for i in 0..<60 { right[i] += fit.right[i] }
            }
            lines = fits.count
        }

        /// Mean cost per line of the best pattern at each place.
        var meanCost: Float {
            let places = (0..<6).map {
                left[($0 * 20)..<($0 * 20 + 20)].min()! + (layout == .upcE ? 0 : right[($0 * 10)..<($0 * 10 + 10)].min()!)
            }
            return places.reduce(0, +) / Float(lines) / Float(layout.places)
        }

        /// Per place, how much worse per line `code`'s pattern fits than the best pattern there.
        /// `code`: 13 digits; for a UPC-E, its GTIN-13 (`upcEShortfalls`).
        func shortfalls(of code: String) -> [Float]? {
            if layout == .upcE { return upcEShortfalls(of: code) }
            let digits = code.compactMap(\.wholeNumberValue)
            guard digits.count == 13 else { return nil }
            return leftShortfalls(digits: Array(digits[1...6]), parity: TemplateReader.parities[digits[0]]) + (0..<6).map { place in
                (right[place * 10 + digits[7 + place]] - right[(place * 10)..<(place * 10 + 10)].min()!) / Float(lines)
            }
        }

        /// The shortfalls of the UPC-E that `gtin13` (the UPC-A it expands to, with a leading 0)
        /// was printed as: its six digits, each in the set its number system and check digit give.
        /// Several UPC-Es can expand to one UPC-A (`GTIN.upcEDigits`): the one that fits best.
        private func upcEShortfalls(of gtin13: String) -> [Float]? {
            let fits = GTIN.upcEDigits(ofGTIN13: gtin13).map { system, six, check in
                leftShortfalls(digits: six, parity: TemplateReader.upcEParities[check].map { system == 0 ? $0 : !$0 })
            }
            return fits.min { $0.max()! < $1.max()! }
        }

        /// The shortfalls of six digits at the left-half places, each in set B where `parity` says
        /// so, else in set A.
        private func leftShortfalls(digits: [Int], parity: [Bool]) -> [Float] {
            (0..<6).map { place in
                (left[place * 20 + (parity[place] ? 10 : 0) + digits[place]] - left[(place * 20)..<(place * 20 + 20)].min()!) / Float(lines)
            }
        }

        /// The code whose patterns cost least (an EAN-13 or UPC-A: none for a UPC-E).
        var decision: Decision? {
            guard layout != .upcE else { return nil }
            let lines = Float(self.lines)
            func best(_ costs: ArraySlice<Float>) -> (index: Int, cost: Float, margin: Float) {
                let sorted = costs.sorted()
                let index = costs.firstIndex(of: sorted[0])! - costs.startIndex
                return (index, sorted[0], sorted[1] - sorted[0])
            }
            // Left half: per parity pattern, the best digit of the right set at each place.
            let byParity = TemplateReader.parities.map { pattern in
                pattern.enumerated().map { place, isB in best(left[(place * 20 + (isB ? 10 : 0))..<(place * 20 + (isB ? 20 : 10))]) }
            }
            let parityCosts = byParity.map { $0.reduce(0) { $0 + $1.cost } }
            let ranked = parityCosts.indices.sorted { parityCosts[$0] < parityCosts[$1] }
            let first = ranked[0]
            let rightBest = (0..<6).map { best(right[($0 * 10)..<($0 * 10 + 10)]) }
            var margin = Float.infinity
            for place in 0..<6 {
                margin = min(margin, best(left[(place * 20)..<(place * 20 + 20)]).margin, rightBest[place].margin)
            }
            let cost = parityCosts[first] + rightBest.reduce(0) { $0 + $1.cost }
            let code = ([first] + byParity[first].map(\.index) + rightBest.map(\.index)).map(String.init).joined()
            return Decision(code: code, lines: self.lines, margin: margin / lines,
                            parityMargin: (parityCosts[ranked[1]] - parityCosts[first]) / lines, cost: cost / lines / 12)
        }
    }
}
