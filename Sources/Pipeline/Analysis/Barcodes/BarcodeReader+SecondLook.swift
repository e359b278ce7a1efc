import Foundation
import Imaging
import Vocabulary
import Catalog

/// Step 4 of reading a photo, only where steps 1–3 read nothing (so it costs nothing on the photos
/// ZBar reads): prepared copies of the overview, each read by zxing-cpp and by ZBar.
///
/// What real photos need that generated ones did not: a quiet zone (phones crop close to the code,
/// and neither reader finds a code whose bars touch the frame's edge), more pixels per module for
/// small or blurred codes, light-on-dark codes, and a second decoder that binarises differently.
/// Blurred codes are also where misreads that pass the check digit come from, so a linear code
/// counts only when two different reads agree on it (see `Evidence`).
extension BarcodeReader {
    /// The whole frame is read again only up to this many pixels (the ×2 copy up to 4 times as many):
    /// a small photo is a close-up of its code, so its whole frame is the region to read; in a
    /// large one the locator's regions are, and reading all of it again would cost every photo
    /// without a code (most of a set: fronts and nutrition labels) tens of milliseconds.
    static let secondLookPixels = 640 * 480

    /// A prepared copy (padded, enlarged) of a small photo has at most this many pixels: the
    /// largest, a padded 640×480 frame at twice its size, has about 6 times `secondLookPixels`;
    /// only a frame of extreme shape, padded by a tenth of its long side on every side, goes past.
    static let maximumCopyPixels = 16 * secondLookPixels

    func secondLook(overview pixels: GreyImage, candidates: [BarcodeCandidate], weak: [BarcodeReading],
                    scanners: Scanners) throws -> Evidence {
        var evidence = Evidence()
        for reading in weak { evidence.add(reading, from: Evidence.Source(decoder: "ZBar", view: "×1")) }
        var templates = TemplateEvidence(pixels: pixels, candidates: candidates, rules: rules, memo: memo)
        var acrossOverview: [BarcodeReading] = []
        for copy in try Self.copies(of: pixels, candidates: candidates, weak: weak, memo: memo) {
            let image = try copy.image()
            let whole = { (reading: BarcodeReading) in !QuietZone.isPartial(reading, in: image, rules: self.rules) }
            var scans = [("zxing", copy.isWholeOverview ? scanners.scanOverviewByZXing(image)
                                                        : scanners.zxing.scan(image, ways: copy.isUpright ? [] : .turned))]
            // Every line, also of enlarged copies: scanning those at every second line instead (as
            // many lines per original pixel) let ZBar confirm its own misreads at two scales.
            if copy.withZBar { scans.append(("ZBar", scanners.frame.scan(image))) }
            for (decoder, symbols) in scans {
                let described = "\(decoder), copy \(copy.view)\(copy.view == "region" ? "" : " of the overview")"
                let sound = trace.kept(trace.readings(of: symbols, "second look", described), "second look", described,
                                       because: QuietZone.rule(rules), whole)
                // As across the overview and in regions: a read by so few lines is no evidence (two
                // decoders each read a damaged UPC-A's one misread on one or two lines).
                let readings = trace.kept(sound, "second look", described,
                                          because: "read by fewer than \(rules.trustedLines) scan lines", isTrusted)
                for reading in readings.conflicted() {
                    trace?.note("second look", described, reading, "unconfirmed", because: "another code was read across "
                        + "the same bars: evidence only if the template reader confirms it")
                }
                let source = Evidence.Source(decoder: decoder, view: copy.view)
                for reading in readings.withoutConflicts() { evidence.add(reading.placed(at: copy.place(reading.box)), from: source) }
                if copy.isWholeOverview { acrossOverview += readings.withoutConflicts() }
                for reading in readings.conflicted() { evidence.addConflicted(reading.placed(at: copy.place(reading.box)), from: source) }
            }
            // Two decoders can repeat one misread of a blurred code; the template
            // reader, which models the blur, overrules them where it clearly fits another pattern.
            // Two decoders agree only where zxing-cpp does not also read another code around it:
            // a damaged UPC-A gave ZBar and zxing-cpp one misread, ZBar's on 16 lines upright and
            // on 23 turned by a right angle, while zxing-cpp read the right code around it.
            for reading in evidence.accepted where try !agreed(reading, in: evidence, pixels: pixels, scanners: scanners)
                && templates.verdict(on: reading) == .contradicts {
                trace?.note("second look", "template reader", reading, "dropped",
                            because: "not read by both decoders alone, one of them by \(rules.confirmedLines)+ lines, "
                                + "and the template reader fits other patterns better")
                evidence.reject(reading)
            }
            if !evidence.accepted.isEmpty { return evidence }
        }
        // A code read once, or among others across the same bars, is confirmed when the template
        // reader finds the same patterns: in the regions, else where the code was read (a small
        // code among print, which no region holds alone).
        for reading in evidence.unconfirmed + evidence.conflicted {
            let place: String
            if try templates.verdict(on: reading) == .confirms {
                place = "the bars"
            } else {
                var own = TemplateEvidence(pixels: pixels, targets: [Self.place(of: reading, in: pixels)], rules: rules, memo: memo)
                guard try own.verdict(on: reading) == .confirms else { continue }
                place = "the bars where it was read"
            }
            trace?.note("second look", "template reader", reading, "confirmed", because: "its digit patterns fit " + place)
            evidence.confirmByTemplate(reading)
        }
        if !evidence.accepted.isEmpty { return evidence }
        // A code zxing-cpp read across the whole overview as it is by `rules.confirmedLines` lines
        // or more counts as ZBar's read of the overview by as many does (`stands`), in a small photo
        // as in a large one: unless a second opinion, here the template reader, contradicts it.
        for reading in acrossOverview where try reading.symbology != .qr && reading.quality >= rules.confirmedLines
            && evidence.unconfirmed.contains(where: { $0.isSameCode(as: reading) })
            && templates.verdict(on: reading) != .contradicts {
            trace?.note("second look", "zxing, copy ×1 of the overview", reading, "confirmed", because: "read by "
                + "\(rules.confirmedLines)+ scan lines across the whole overview, and the template reader does not contradict it")
            evidence.standAlone(reading)
        }
        if !evidence.accepted.isEmpty { return evidence }
        // Else the template reader's own read, when it is clear enough alone (`TemplateReader.accepts`):
        // one of its halves, read apart, gave the same code. A code another decoder read
        // differently leaves it in doubt, unless the template reader contradicts that one.
        if let reading = try templates.read(symbologies: symbologies),
           try evidence.unconfirmed.allSatisfy({
               try $0.symbology == .qr || $0.productKey == reading.productKey || templates.verdict(on: $0) == .contradicts
           }) {
            trace?.note("second look", "template reader", reading, "read", because: "each half of the code, read apart, gave it")
            for half in ["upper", "lower"] {
                evidence.add(reading, from: Evidence.Source(decoder: "template", view: half))
            }
            evidence.standAlone(reading)
        }
        return evidence
    }

    /// True when ZBar and zxing-cpp both read `reading`'s code, one of them by `rules.confirmedLines`
    /// lines or more (`Evidence.isReadByBothDecoders`), and zxing-cpp reads no other code around it.
    private func agreed(_ reading: BarcodeReading, in evidence: Evidence, pixels: GreyImage, scanners: Scanners) -> Bool {
        evidence.isReadByBothDecoders(reading, oneBy: rules.confirmedLines)
            && zxingReads(Self.surroundings(of: reading.box, in: pixels), in: pixels, scanners: scanners)
                .allSatisfy { $0.isSameCode(as: reading) }
    }

    /// True when `candidate` is a region of bars about half ink (`BarcodeReader.maximumLightness`):
    /// a code, not a line of text or a logo on white.
    static func isBars(_ candidate: BarcodeCandidate, in pixels: GreyImage) -> Bool {
        candidate.isLinear && pixels.lightness(of: candidate.box) <= BarcodeReader.maximumLightness
    }

    /// Where `reading` was read, as a region for the template reader (its bars turned upright): the
    /// box its scan lines span, widened along them by `endMargin` for the code's
    /// ends, and across them to at least a quarter of the code's length (a read by a line or two
    /// spans no height). A box longer than high was read by lines across it: its bars stand.
    static func place(of reading: BarcodeReading, in pixels: GreyImage) -> (box: PixelBox, angle: Double) {
        let box = reading.box, lying = box.width >= box.height
        let length = lying ? box.width : box.height, across = max(lying ? box.height : box.width, length / 4)
        let margin = endMargin(ofCodeLong: length)
        let place = lying
            ? PixelBox(x: box.x - margin, y: box.y + box.height / 2 - across / 2, width: length + 2 * margin, height: across)
            : PixelBox(x: box.x + box.width / 2 - across / 2, y: box.y - margin, width: across, height: length + 2 * margin)
        return (place.clamped(width: pixels.width, height: pixels.height), lying ? 0 : 90)
    }

    /// Where the template reader looks: the linear regions about half ink, and a small photo's
    /// whole frame turned by its dominant gradient direction. A frame too thin for the cell grid
    /// (under 16 px one way: a strip cut along a code, as scanners and crops make them) can hold a
    /// linear code only along its length: it is read with the bars across its long side.
    static func templateTargets(in pixels: GreyImage, candidates: [BarcodeCandidate]) -> [(PixelBox, Double)] {
        let targets = candidates.filter { isBars($0, in: pixels) }.map { ($0.box, $0.angle) }
        let frame = PixelBox(x: 0, y: 0, width: pixels.width, height: pixels.height)
        guard pixels.width * pixels.height <= secondLookPixels else { return targets }
        guard let grid = CellGrid(pixels) else { return targets + [(frame, pixels.width >= pixels.height ? 0 : 90)] }
        var sum = Tensor()
        for tensor in grid.tensors where tensor.coherence >= 0.75 { sum.add(tensor) }
        guard sum.coherence >= 0.5 else { return targets }
        return targets + [(frame, -sum.direction)]
    }

    /// Where the frame holds bars, in the coordinates of `pixels` padded by `margin`: every region
    /// of bars about half ink and every code read too weakly to count, each as the band along its
    /// scan lines across the whole frame (a region found can be part of its code, and a decoder's
    /// binariser needs the code's ends and their quiet zones), its own size wider on either side;
    /// or nil when there are none.
    static func barsSurroundings(in pixels: GreyImage, candidates: [BarcodeCandidate], weak: [BarcodeReading],
                                 margin: Int) -> PixelBox? {
        let places = candidates.filter { isBars($0, in: pixels) }.map { ($0.box, abs($0.angle) < 45) }
            + weak.map { ($0.box, $0.box.width >= $0.box.height) }
        let bands = places.map { box, lying in
            let across = max(margin, box.width, box.height)
            return lying
                ? PixelBox(x: -margin, y: box.y - across, width: pixels.width + 2 * margin, height: box.height + 2 * across)
                : PixelBox(x: box.x - across, y: -margin, width: box.width + 2 * across, height: pixels.height + 2 * margin)
        }
        guard let first = bands.first else { return nil }
        return bands.dropFirst().reduce(first) { $0.union($1) }.placed(in: PixelBox(x: margin, y: margin, width: 0, height: 0))
            .clamped(width: pixels.width + 2 * margin, height: pixels.height + 2 * margin)
    }

    /// `box`, in a copy of `pixels` padded by `margin`, cut to `crop` (all of it when nil) and
    /// enlarged by `scale`, in `pixels`' own coordinates.
    static func unpadded(_ box: PixelBox, scale: Double, margin: Int, in pixels: GreyImage, from crop: PixelBox? = nil) -> PixelBox {
        let origin = crop ?? PixelBox(x: 0, y: 0, width: 0, height: 0)
        return PixelBox(x: Int(Double(box.x) / scale) + origin.x - margin, y: Int(Double(box.y) / scale) + origin.y - margin,
                        width: Int(Double(box.width) / scale), height: Int(Double(box.height) / scale))
            .clamped(width: pixels.width, height: pixels.height)
    }

    /// One prepared copy: how to make it (only when it is reached), and how its boxes map back to
    /// the overview.
    struct PreparedCopy {
        /// What a decoder sees in it, for telling independent reads apart (`Evidence`): its scale,
        /// or its polarity; sharpening or stretching the levels at one scale does not count.
        var view: String
        var withZBar: Bool
        /// The whole overview, as it is: zxing-cpp's reads of it by many lines count alone, as ZBar's do.
        var isWholeOverview = false
        /// Turned so that a linear region's bars stand upright: zxing-cpp reads it along rows only.
        /// Every other copy lies as the photo was stored, and is read along columns too.
        var isUpright = false
        var image: () throws -> GreyImage
        var place: (PixelBox) -> PixelBox
    }

    /// The copies, cheapest and most often useful first (measured on ../shared/realphotos).
    ///
    /// A small photo's whole frame is read again four ways, each by what it was found to need: on
    /// the 1,050 development photos (bench/fit_rules.py's, `oldphones/`, `blurred/` and a generated
    /// corpus at 640×480), dropping any one of them lost codes, while the copies they replaced
    /// (padded as it is, ×2, ×3, contrast-stretched; ZBar on the enlarged and inverted ones) lost
    /// none, and cost two thirds of a 640×480 photo's reading without a code.
    static func copies(of pixels: GreyImage, candidates: [BarcodeCandidate], weak: [BarcodeReading] = [],
                       memo: ReadMemo? = nil) throws -> [PreparedCopy] {
        var copies: [PreparedCopy] = []
        let area = pixels.width * pixels.height
        let whole = PixelBox(x: 0, y: 0, width: pixels.width, height: pixels.height)
        if area <= secondLookPixels {
            let margin = max(8, max(pixels.width, pixels.height) / 10)
            // Padded by a tenth of its long side, a frame of extreme shape (30000×9) grows many times
            // over: its padded copies would need hundreds of megabytes, and are not made.
            let padded = Double((pixels.width + 2 * margin) * (pixels.height + 2 * margin))
            let fits = { (scale: Double) in padded * scale * scale <= Double(maximumCopyPixels) }
            // The frame as it is, by zxing-cpp: a white margin moves its binariser's blocks and
            // finder search, and it lost dense QR codes it reads unpadded. Its reads by many lines
            // count alone, as ZBar's of the overview do: on generated crops, zxing-cpp read UPC-Es
            // by 27 to 179 lines that ZBar did not read at all.
            copies.append(PreparedCopy(view: "×1", withZBar: false, isWholeOverview: true, image: { pixels }, place: { $0 }))
            // Enlarged, with a quiet zone (phones crop close to the code, and neither reader finds a
            // code whose bars touch the frame's edge): a code of few pixels a module.
            if fits(1.5) {
                copies.append(PreparedCopy(view: "×1.5", withZBar: false, image: {
                    try pixels.padded(by: margin).enlarged(nil, by: 1.5)
                }, place: { Self.unpadded($0, scale: 1.5, margin: margin, in: pixels) }))
            }
            // Sharpened, by both decoders, where the locator found bars or ZBar read a code too
            // weakly: a blurred code's edges. Only there: a front's or a label's whole frame,
            // sharpened at twice its size, was the costliest copy of all, and held no code the
            // bars' surroundings miss.
            if fits(2), let around = barsSurroundings(in: pixels, candidates: candidates, weak: weak, margin: margin) {
                copies.append(PreparedCopy(view: "×2.0", withZBar: true, image: {
                    try pixels.padded(by: margin).enlarged(around, by: 2).sharpened()
                }, place: { Self.unpadded($0, scale: 2, margin: margin, in: pixels, from: around) }))
            }
            // Inverted: codes printed light on dark (zxing-cpp; ZBar read none of them that it did not).
            if fits(1) {
                copies.append(PreparedCopy(view: "inverted", withZBar: false,
                                           image: { pixels.inverted().padded(by: margin) },
                                           place: { Self.unpadded($0, scale: 1, margin: margin, in: pixels) }))
            }
        }
        // Regions about half ink only, as for the full-resolution pass: logos and lines of text on
        // white are most of what the locator finds on fronts and labels.
        for candidate in candidates where (!candidate.box.covers(whole) || area > secondLookPixels)
            && pixels.lightness(of: candidate.box) <= BarcodeReader.maximumLightness {
            // Enlarged as for the first read, then as it is: a curved or slanted code (a can's label)
            // reads at one scale and not another, and zxing-cpp lost such codes enlarged that it
            // reads at the overview's scale. One view: the same pixels, only resampled.
            let enlarged = min(3, max(1.5, 700 / Double(max(candidate.box.width, candidate.box.height))))
            for scale in [enlarged, 1] {
                copies.append(PreparedCopy(view: "region", withZBar: false, isUpright: candidate.isLinear, image: {
                    try pixels.region(candidate.box, angle: candidate.isLinear ? candidate.angle : 0, scale: scale, smoothRows: 1, memo: memo)
                }, place: { _ in candidate.box }))
            }
        }
        // Last, zxing-cpp across the whole overview of a large photo, once nothing else read: it
        // finds codes by its own binarisation and rows where the locator's regions miss them.
        if area > secondLookPixels, candidates.contains(where: { isBars($0, in: pixels) }) {
            copies.append(PreparedCopy(view: "×1", withZBar: false, isWholeOverview: true, image: { pixels }, place: { $0 }))
        }
        return copies
    }
}

private extension GreyImage {
    /// The part of the image in `box` (all of it when nil), enlarged by `scale`.
    func enlarged(_ box: PixelBox?, by scale: Double) throws(ImageError) -> GreyImage {
        let frame = (box ?? PixelBox(x: 0, y: 0, width: width, height: height)).clamped(width: width, height: height)
        return try region(frame, angle: 0, scale: scale, smoothRows: 1)
    }
}
