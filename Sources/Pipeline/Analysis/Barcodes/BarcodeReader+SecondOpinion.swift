import Foundation
import Imaging
import Vocabulary

/// Second opinions on ZBar's reads of linear codes: zxing-cpp, binarising differently, and the
/// template reader, which models blur and ink spread.
extension BarcodeReader {
    /// What a second, differently made read says of a linear code ZBar read. On blurred real photos
    /// ZBar misreads codes consistently, on a few lines or on dozens, and a misread passes the
    /// check digit one time in ten: neither the line count nor the check digit is evidence that a
    /// code is right; a read made differently is.
    /// - zxing-cpp, binarising differently, reads the same code there (confirms), or another code
    ///   (contradicts: the right one, or several; two decoders reading different codes in one place
    ///   leave it to the second look);
    /// - else, for an EAN-13 or UPC-A, the template reader, which models blur and ink spread, fits
    ///   the code's digit patterns best (confirms) or clearly fits others (contradicts; see
    ///   `TemplateReader.verdict`); for a UPC-E it only confirms.
    /// One or two small zxing reads per read, and a template fit only where zxing-cpp did not read
    /// the same code (zxing takes a millisecond on a sharp code, the fit tens).
    static func secondOpinion(on reading: BarcodeReading, zxing: [BarcodeReading],
                                      templates: @autoclosure () -> TemplateEvidence) throws -> TemplateReader.Verdict {
        if zxing.contains(where: { !$0.isSameCode(as: reading) }) { return .contradicts }
        if zxing.contains(where: { $0.isSameCode(as: reading) }) { return .confirms }
        guard TemplateReader.confirmed.contains(reading.symbology) else { return .undecided }
        var evidence = templates()
        return try evidence.verdict(on: reading)
    }

    /// True when a linear code ZBar read on the whole photo counts: a second opinion confirms it,
    /// or, read by `rules.confirmedLines` lines or more, zxing-cpp does not contradict it and, where
    /// zxing-cpp reads nothing and the read has fewer than `rules.templateExemptLines` lines, the
    /// template reader does not either. (Its verdict on every well-read code would cost 10 % of the
    /// 12 MP corpus's CPU: only reads zxing-cpp does not confirm get it.) A well-read code is judged
    /// on its whole extent (`reach(around:in:)`): ZBar's box of a code read on many lines can span
    /// half of it, and on the surroundings of such a box, which cut the code, the template reader
    /// fits other patterns better than a right code's. A code that does not count here is not
    /// lost: the candidate regions and the second look read it again, differently. With the reason,
    /// for the trace.
    func stands(_ reading: BarcodeReading, in pixels: GreyImage, scanners: Scanners) throws -> (Bool, String) {
        guard reading.symbology != .qr else { return (true, "a QR code corrects its own errors") }
        let area = Self.surroundings(of: reading.box, in: pixels)
        let zxing = zxingReads(area, in: pixels, scanners: scanners)
        if reading.quality >= rules.confirmedLines {
            if let contradiction = zxing.first(where: { !$0.isSameCode(as: reading) }) {
                return (false, "zxing-cpp reads \(contradiction.productKey) there")
            }
            let lines = "\(rules.confirmedLines)+ scan lines, and zxing-cpp "
            if !zxing.isEmpty { return (true, lines + "agrees") }
            if reading.quality >= rules.templateExemptLines ?? .max { return (true, lines + "reads nothing there") }
            let whole = Self.reach(around: reading.box, in: pixels)
            // The template reader reads a frame this large only along its candidate regions (`templateTargets`).
            guard whole.width * whole.height <= Self.secondLookPixels else {
                return (true, lines + "reads nothing there; the code's surroundings are too large for the template reader")
            }
            var templates = TemplateEvidence(pixels: pixels.cropped(to: whole), candidates: [], rules: rules, memo: memo)
            let verdict = try templates.verdict(on: reading)
            return (verdict != .contradicts, "\(rules.confirmedLines)+ scan lines; second opinion on the code's whole extent "
                + Self.describe(verdict, zxing: zxing, on: reading))
        }
        // Where zxing-cpp reads nothing around the read, it may read the code on its whole extent
        // (where `isWholeByZXing` looks): the same code alone there is the same second opinion.
        let opinion = zxing.isEmpty ? zxingReadsOnlyIt(onTheWholeExtentOf: reading, in: pixels, scanners: scanners) : zxing
        let verdict = try Self.secondOpinion(on: reading, zxing: opinion,
                                             templates: TemplateEvidence(pixels: pixels.cropped(to: area), candidates: [], rules: rules, memo: memo))
        return (verdict == .confirms, "under \(rules.confirmedLines) scan lines; second opinion "
            + Self.describe(verdict, zxing: opinion, on: reading))
    }

    /// True when zxing-cpp reads the same code as `reading` around it, and no other: a read the
    /// quiet zone test takes for a part of a larger code stands then. zxing-cpp finds a code's
    /// ends by its guard bars and quiet zone in its own binarisation, so where the test mistook
    /// print beside a code (a coloured label edge, a line of text) for bars, it reads the same
    /// code; where a part was read, it reads the whole code (another one) or nothing. It looks on
    /// the code's whole extent (`reach(around:in:)`): the test misjudges a part read from the box alone.
    func isWholeByZXing(_ reading: BarcodeReading, in pixels: GreyImage, scanners: Scanners) -> Bool {
        guard !zxingReadsOnlyIt(onTheWholeExtentOf: reading, in: pixels, scanners: scanners).isEmpty else { return false }
        trace?.note("overview", "zxing-cpp, around the read", reading, "kept",
                    because: "zxing-cpp reads the same code there, and no other: what lies beside it is not more bars")
        return true
    }

    /// zxing-cpp's reads of `reading`'s code on the code's whole extent (`reach(around:in:)`), when
    /// it reads that code there and no other; else none.
    func zxingReadsOnlyIt(onTheWholeExtentOf reading: BarcodeReading, in pixels: GreyImage, scanners: Scanners) -> [BarcodeReading] {
        let zxing = zxingReads(Self.reach(around: reading.box, in: pixels), in: pixels, scanners: scanners)
        return zxing.allSatisfy { $0.isSameCode(as: reading) } ? zxing : []
    }

    /// What a second opinion was, in words.
    static func describe(_ verdict: TemplateReader.Verdict, zxing: [BarcodeReading], on reading: BarcodeReading) -> String {
        if let other = zxing.first(where: { !$0.isSameCode(as: reading) }) {
            return "contradicts: zxing-cpp reads \(other.productKey)"
        }
        if !zxing.isEmpty { return "confirms: zxing-cpp reads the same" }
        switch verdict {
        case .confirms: return "confirms: the template reader fits its digit patterns"
        case .contradicts: return "contradicts: the template reader fits other patterns better"
        case .undecided: return "undecided: zxing-cpp reads nothing and the template reader cannot tell"
        }
    }

    /// The linear codes zxing-cpp reads in `area` of `pixels`: as it is, else enlarged (zxing-cpp
    /// reads small or blurred codes better at two or three pixels a module than at one).
    /// `angle` turns the area's bars upright first, as for a candidate region (ingest turns and
    /// scales itself: see `CZXingShim`); without one, the area is read as it lies, along rows and
    /// columns, as ZBar reads the overview: its second opinion must not depend on which way round
    /// the photo was stored. A read by fewer than `rules.trustedLines` lines is no opinion:
    /// zxing-cpp and ZBar each read a damaged UPC-A's one misread on a line or two.
    func zxingReads(_ area: PixelBox, angle: Double? = nil, in pixels: GreyImage, scanners: Scanners) -> [BarcodeReading] {
        guard area.width > 0, area.height > 0 else { return [] }
        for scale in [1.0, 2.5] {
            guard let copy = try? pixels.region(area, angle: angle ?? 0, scale: scale, smoothRows: 1, memo: memo) else { continue }
            let reads = scanners.zxing.scan(copy.padded(by: 16), ways: angle == nil ? .turned : []).compactMap(GTIN.reading(from:))
                .filter { $0.symbology != .qr && isTrusted($0) }
            if !reads.isEmpty { return reads }
        }
        return []
    }

    /// True when a second opinion overrules a code ZBar read in a candidate region (turned upright,
    /// enlarged and smoothed: a blurred code gave ZBar a misread 28 lines agreed on): it contradicts
    /// the code, or, for a code the template reader cannot read alone (it reads the EAN-13 and
    /// UPC-A layouts; a UPC-E it only confirms) read by fewer than `rules.confirmedLines` lines,
    /// neither second opinion confirms it.
    ///
    /// `bars`: linear regions inside a 2-D candidate, where the template reader can judge its reads.
    /// A 2-D region is read as it lies, bars and the print around them together; where neither
    /// second opinion decides, its read counts only when its bars, read turned upright (the copy
    /// made for bars), give the same code: the print around the bars can make ZBar's lines agree on
    /// a misread (`RealPhotoBarcodeTests.testReadAll_codeReadOnlyInA2DRegionWhoseBarsReadNothing_isDropped`).
    ///
    /// `fullResolution`: the photo's full-resolution pixels, when `image` is its shrunk overview. Where
    /// neither second opinion decides there, zxing-cpp reads the region at full resolution
    /// (`zxingReadsAtFullResolution`), and decides instead when it reads a code.
    func isOverruled(_ reading: BarcodeReading, candidate: BarcodeCandidate, bars: [BarcodeCandidate] = [],
                     in image: GreyImage, fullResolution: FullResolution? = nil, scanners: Scanners,
                     step: String, source: String) throws -> Bool {
        guard reading.symbology != .qr else { return false }
        let zxing = zxingReads(candidate.box, angle: candidate.isLinear ? candidate.angle : nil, in: image, scanners: scanners)
        let templates = TemplateEvidence(pixels: image, candidates: [candidate] + bars, rules: rules, memo: memo)
        var verdict = try Self.secondOpinion(on: reading, zxing: zxing, templates: templates)
        var because = "second opinion " + Self.describe(verdict, zxing: zxing, on: reading)
        if verdict == .undecided, let fullResolution,
           let finer = zxingReadsAtFullResolution(candidate, from: fullResolution, scanners: scanners), !finer.isEmpty {
            verdict = try Self.secondOpinion(on: reading, zxing: finer, templates: templates)
            because += "; at full resolution " + Self.describe(verdict, zxing: finer, on: reading)
        }
        let overruled: Bool
        switch verdict {
        case .contradicts: overruled = true
        case .confirms: overruled = false
        case .undecided where !TemplateReader.symbologies.contains(reading.symbology) && reading.quality < rules.confirmedLines:
            overruled = true
            because += ", and under \(rules.confirmedLines) scan lines"
        case .undecided where try !bars.isEmpty && !bars.contains(where: { bar in
            try read(bar, in: image, scanners: scanners, step: nil, source: "").contains { $0.productKey == reading.productKey }
        }):
            overruled = true
            because += ", and the bars inside the region, read turned upright, do not give it"
        case .undecided:
            overruled = false
            because += ", not overruled"
        }
        trace?.note(step, source, reading, overruled ? "dropped" : "kept", because: because)
        return overruled
    }

    /// A shrunk overview's full-resolution pixels: `pixels` gives those of a rectangle (full-resolution
    /// coordinates) and the rectangle they cover.
    struct FullResolution {
        var shrink: Int
        var pixels: (PixelBox) throws -> (pixels: GreyImage, origin: PixelBox)
    }

    /// zxing-cpp's reads of `candidate` (a region of the overview) at full resolution, as
    /// `zxingReads` reads it in the overview; nil when those pixels cannot be had. A region of the
    /// overview holds a code at a pixel a module or less, where ZBar's reads of differently
    /// prepared copies can repeat one misread, and neither zxing-cpp nor the template reader can
    /// tell there, while zxing-cpp reads the right code at full resolution
    /// (`FullResolutionBarcodeTests.testReadAll_overviewMisreadNeitherSecondOpinionDecides_isContradictedAtFullResolution`).
    func zxingReadsAtFullResolution(_ candidate: BarcodeCandidate, from fullResolution: FullResolution,
                                    scanners: Scanners) -> [BarcodeReading]? {
        let box = candidate.box.scaled(by: fullResolution.shrink)
        guard let (pixels, origin) = try? fullResolution.pixels(box) else { return nil }
        return zxingReads(box.relative(to: origin), angle: candidate.isLinear ? candidate.angle : nil, in: pixels, scanners: scanners)
    }

    /// Room beyond either end of a read `length` pixels long along its scan lines, for the code's
    /// ends and quiet zone: ZBar's box spans only where its lines finished decoding.
    static func endMargin(ofCodeLong length: Int) -> Int { length / 4 + 8 }

    /// A read's box and a box's length beyond it on every side: the whole code, whichever way its
    /// bars lie, when ZBar's box spans only a part of it (where its lines finished decoding).
    static func reach(around box: PixelBox, in pixels: GreyImage) -> PixelBox {
        box.grown(by: max(box.width, box.height)).clamped(width: pixels.width, height: pixels.height)
    }

    /// A read's box with room around it for the whole code and its quiet zone: ZBar's box spans the
    /// scan lines that read it, which may be a thin strip of the bars.
    static func surroundings(of box: PixelBox, in pixels: GreyImage) -> PixelBox {
        let marginX = endMargin(ofCodeLong: box.width), marginY = max(box.height, box.width) / 2 + 8
        return PixelBox(x: box.x - marginX, y: box.y - marginY,
                        width: box.width + 2 * marginX, height: box.height + 2 * marginY)
            .clamped(width: pixels.width, height: pixels.height)
    }
}
