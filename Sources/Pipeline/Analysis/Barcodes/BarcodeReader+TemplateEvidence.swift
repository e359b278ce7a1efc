import Foundation
import Imaging
import Vocabulary

extension BarcodeReader {
    /// The template reader's evidence on a photo's regions, each fitted once, when first asked.
    struct TemplateEvidence {
        let pixels: GreyImage
        let candidates: [BarcodeCandidate]
        let rules: AcceptanceRules
        /// Where the fits of a region are found when the photo was read before (`BarcodeReader.memo`).
        let memo: ReadMemo?
        private var fitted: [TemplateReader.Layout: [[TemplateReader.Way]?]] = [:]

        /// Where it looks, when given rather than found among `candidates` (`templateTargets`).
        private let targets: [(box: PixelBox, angle: Double)]?

        init(pixels: GreyImage, candidates: [BarcodeCandidate], rules: AcceptanceRules, memo: ReadMemo?) {
            self.pixels = pixels
            self.candidates = candidates
            self.rules = rules
            self.memo = memo
            targets = nil
        }

        /// Evidence from the regions `targets` (boxes of `pixels`, each turned by its angle) only.
        init(pixels: GreyImage, targets: [(box: PixelBox, angle: Double)], rules: AcceptanceRules, memo: ReadMemo?) {
            self.pixels = pixels
            candidates = []
            self.rules = rules
            self.memo = memo
            self.targets = targets
        }

        /// The regions the fits look at: boxes of `pixels`, each turned by its angle.
        private lazy var places: [(box: PixelBox, angle: Double)] = targets
            ?? BarcodeReader.templateTargets(in: pixels, candidates: candidates).map { (box: $0.0, angle: $0.1) }

        /// The ways of region `index` (of `places`) fitted with the whole code placed as one on each
        /// line, or as a UPC-E; or, only where the whole code fits that region at all, each half
        /// alone or the whole code as seen at an angle (`TemplateReader.ways`). Each region is fitted
        /// once, when first asked: a verdict often rests on the first region alone.
        private mutating func ways(ofRegion index: Int, _ layout: TemplateReader.Layout = .whole) throws -> [TemplateReader.Way] {
            if let done = fitted[layout]?[index] { return done }
            if fitted[layout] == nil { fitted[layout] = Array(repeating: nil, count: places.count) }
            let ways = try fit(places[index], layout, wholeFits: layout == .halves || layout == .perspective
                ? !(try self.ways(ofRegion: index)).isEmpty : true)
            fitted[layout]?[index] = ways
            return ways
        }

        private func fit(_ place: (box: PixelBox, angle: Double), _ layout: TemplateReader.Layout,
                         wholeFits: Bool) throws -> [TemplateReader.Way] {
            // A place with no pixels (a read's box on the frame's edge, clamped) has no patterns to fit.
            let inside = place.box.clamped(width: pixels.width, height: pixels.height)
            guard wholeFits, inside.width > 0, inside.height > 0 else { return [] }
            let region = try pixels.region(place.box, angle: place.angle, scale: 1, smoothRows: 1, memo: memo)
            let reader = TemplateReader()
            return memo?.value("template \(layout)", region) { reader.ways(region, layout) } ?? reader.ways(region, layout)
        }

        /// The verdict on `code` of region `index`'s ways fitted with `layout`.
        private mutating func verdict(on code: String, region index: Int, _ layout: TemplateReader.Layout = .whole) throws
            -> TemplateReader.Verdict {
            TemplateReader.verdict(on: code, try ways(ofRegion: index, layout), contradictingShortfall: rules.contradictingShortfall)
        }

        /// Whether any region's ways (of `indices`, or all), fitted with `layout`, give `verdict` on `code`.
        private mutating func anyRegion(_ layout: TemplateReader.Layout, gives verdict: TemplateReader.Verdict, on code: String,
                                        among indices: [Int]? = nil) throws -> Bool {
            for index in indices ?? Array(places.indices) where try self.verdict(on: code, region: index, layout) == verdict {
                return true
            }
            return false
        }

        /// The verdict on an EAN-13 or UPC-A: any region that confirms it, with the whole code
        /// placed as one or else each half alone, confirms it; else any that contradicts it with
        /// the whole code placed as one, and again placed as seen at an angle, does (the halves'
        /// freer fit contradicts nothing).
        ///
        /// A contradiction needs both fits. On generated crops (bench/crops.py, seeds 2, 7 and 13)
        /// the even placement alone contradicted 14 right codes, 11 of them on codes whose module
        /// widths change by more than a tenth across them, where even widths put the middle bars
        /// up to 3 modules off; and 4 wrong codes, none of them on such a code.
        ///
        /// A UPC-E is only confirmed, by a region where its own layout fits its patterns best at
        /// every place. Its parity patterns hold its check digit, as an EAN-13's left half holds its
        /// first digit, but six places are half the evidence of twelve: the reader does not read a
        /// UPC-E alone (on generated crops one added a wrong UPC-E on guard bars around random
        /// modules), and it does not overrule another decoder's UPC-E either.
        mutating func verdict(on reading: BarcodeReading) throws -> TemplateReader.Verdict {
            guard TemplateReader.confirmed.contains(reading.symbology), let code = reading.gtin13 else { return .undecided }
            if reading.symbology == .upcE {
                return try anyRegion(.upcE, gives: .confirms, on: code) ? .confirms : .undecided
            }
            var contradicting: [Int] = []
            for index in places.indices {
                switch try verdict(on: code, region: index) {
                case .confirms: return .confirms
                case .contradicts: contradicting.append(index)
                case .undecided: break
                }
            }
            if try anyRegion(.halves, gives: .confirms, on: code) { return .confirms }
            guard !contradicting.isEmpty else { return .undecided }
            return try anyRegion(.perspective, gives: .contradicts, on: code, among: contradicting) ? .contradicts : .undecided
        }

        /// The first region's code that the template reader reads alone, when it is of
        /// `symbologies`: with the whole code placed as one, else with each half alone.
        mutating func read(symbologies: Set<Symbology>) throws -> BarcodeReading? {
            for layout in [TemplateReader.Layout.whole, .halves] {
                for index in places.indices {
                    guard let whole = try ways(ofRegion: index, layout).first.flatMap(TemplateReader.accepted) else { continue }
                    return TemplateReader.reading(whole.code, lines: whole.lines, box: places[index].box, symbologies: symbologies)
                }
            }
            return nil
        }
    }
}
