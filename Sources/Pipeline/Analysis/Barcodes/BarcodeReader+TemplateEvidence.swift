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
        private var fitted: [TemplateReader.Layout: [(box: PixelBox, ways: [TemplateReader.Way])]] = [:]

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

        /// The regions fitted with the whole code placed as one on each line, or as a UPC-E; or,
        /// only on regions where the whole code fits at all, each half alone or the whole code as
        /// seen at an angle (`TemplateReader.ways`).
        private mutating func regions(_ layout: TemplateReader.Layout = .whole) throws -> [(box: PixelBox, ways: [TemplateReader.Way])] {
            if let done = fitted[layout] { return done }
            let wholes = layout == .halves || layout == .perspective ? try regions() : nil
            let reader = TemplateReader()
            let targets = targets ?? BarcodeReader.templateTargets(in: pixels, candidates: candidates).map { (box: $0.0, angle: $0.1) }
            let all = try targets.enumerated().map { index, target in
                // A place with no pixels (a read's box on the frame's edge, clamped) has no patterns to fit.
                let inside = target.0.clamped(width: pixels.width, height: pixels.height)
                guard wholes?[index].ways.isEmpty != true, inside.width > 0, inside.height > 0 else {
                    return (box: target.0, ways: [TemplateReader.Way]())
                }
                let region = try pixels.region(target.0, angle: target.1, scale: 1, smoothRows: 1, memo: memo)
                return (box: target.0, ways: memo?.value("template \(layout)", region) { reader.ways(region, layout) } ?? reader.ways(region, layout))
            }
            fitted[layout] = all
            return all
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
            let shortfall = rules.contradictingShortfall
            if reading.symbology == .upcE {
                return try regions(.upcE).contains {
                    TemplateReader.verdict(on: code, $0.ways, contradictingShortfall: shortfall) == .confirms
                } ? .confirms : .undecided
            }
            let verdicts = try regions().map { TemplateReader.verdict(on: code, $0.ways, contradictingShortfall: shortfall) }
            if verdicts.contains(.confirms) { return .confirms }
            if try regions(.halves).contains(where: {
                TemplateReader.verdict(on: code, $0.ways, contradictingShortfall: shortfall) == .confirms
            }) {
                return .confirms
            }
            let contradicting = verdicts.indices.filter { verdicts[$0] == .contradicts }
            guard !contradicting.isEmpty else { return .undecided }
            let angled = try regions(.perspective)
            return contradicting.contains {
                TemplateReader.verdict(on: code, angled[$0].ways, contradictingShortfall: shortfall) == .contradicts
            } ? .contradicts : .undecided
        }

        /// The first region's code that the template reader reads alone, when it is of
        /// `symbologies`: with the whole code placed as one, else with each half alone.
        mutating func read(symbologies: Set<Symbology>) throws -> BarcodeReading? {
            for layout in [TemplateReader.Layout.whole, .halves] {
                for region in try regions(layout) {
                    guard let whole = region.ways.first.flatMap(TemplateReader.accepted) else { continue }
                    return TemplateReader.reading(whole.code, lines: whole.lines, box: region.box, symbologies: symbologies)
                }
            }
            return nil
        }
    }
}
