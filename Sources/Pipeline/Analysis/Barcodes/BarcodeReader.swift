import Foundation
import Imaging
import Vocabulary

/// Reads a photo's barcodes from its overview decode, going back to the full-resolution pixels only
/// for the regions that need them.
///
/// 1. ZBar across the whole overview (the photo decoded once, shrunk on load to about 1000 px); a QR
///    code read there is read again enlarged, for a finer QR code inside it (`finerQRCodes`).
/// 2. Where that finds nothing: the locator's candidate regions, each cut out of the overview,
///    turned so its bars stand upright, enlarged and smoothed along the bars, then read again.
/// 3. Small candidates still unread, when the overview was shrunk: the rectangle around them is
///    decoded again at full resolution, luminance only (one partial decode per photo), and the
///    candidates are cut from that instead. Small codes need it: a 1-D code needs about 1.5 px per
///    module, which a shrunk overview does not keep.
/// Every reported code passed ZBar's own checks and, for retail codes, the GS1 check digit.
final class BarcodeReader: Sendable {
    let symbologies: Set<Symbology>
    private let locator = BarcodeLocator()
    /// A second look where the first found nothing to read: a quarter of the gradient energy
    /// finds codes printed in low contrast (on the hard set: 3 more, no false positive).
    private let faintLocator = BarcodeLocator(minimumEnergy: 100)
    /// The thresholds of the rules that decide which reads count.
    let rules: AcceptanceRules
    /// Where every read and decision is noted, for `ingest explain`; nil while ingesting.
    let trace: ReadTrace?
    /// What the decoders and the template fit gave on the photo's images before, when it is read
    /// again with other rules (`PhotoAnalyzer.explainBarcodes(ofPhotoAt:each:)`); nil while ingesting.
    let memo: ReadMemo?

    init(symbologies: Set<Symbology>, rules: AcceptanceRules = .fitted, trace: ReadTrace? = nil, memo: ReadMemo? = nil) {
        self.symbologies = symbologies
        self.rules = rules
        self.trace = trace
        self.memo = memo
    }

    /// The photo's barcodes, boxes in full-resolution stored pixels.
    /// - Parameters:
    ///   - overview: the grey overview's pixels.
    ///   - shrink: how many original pixels one overview pixel spans.
    ///   - fullResolution: the original's grey pixels of a rectangle (full-resolution coordinates), and
    ///     the rectangle they actually cover, for step 3.
    ///   - onPassFailed: told why the full-resolution pass failed, when it does; the photo then keeps
    ///     what the overview gave.
    func read(overview pixels: GreyImage, shrink: Int,
              fullResolution: (PixelBox) throws -> (pixels: GreyImage, origin: PixelBox),
              onPassFailed: (any Error) -> Void = { _ in }) throws -> [BarcodeReading] {
        try readAll(overview: pixels, shrink: shrink, fullResolution: fullResolution, onPassFailed: onPassFailed).confirmed
    }

    /// The photo's barcodes as `read` gives them, and the linear codes the second look read only
    /// once, which count when another photo of the set reads them too (`SetEvidence`).
    func readAll(overview pixels: GreyImage, shrink: Int,
                 fullResolution: (PixelBox) throws -> (pixels: GreyImage, origin: PixelBox),
                 onPassFailed: (any Error) -> Void = { _ in }) throws -> PhotoBarcodes {
        let scanners = Scanners(symbologies: symbologies, shrink: shrink, memo: memo)
        let barcodes = try readAll(overview: pixels, shrink: shrink, scanners: scanners,
                                   fullResolution: fullResolution, onPassFailed: onPassFailed)
        let found = withAddons(withExtendedCharacters(barcodes, in: pixels, shrink: shrink, scanners: scanners),
                               in: pixels, shrink: shrink, scanners: scanners)
        for reading in found.confirmed { trace?.note("decision", "the photo", reading, "kept") }
        for reading in found.unconfirmed {
            trace?.note("decision", "the photo", reading, "unconfirmed",
                        because: "read once: it counts when another photo of the set reads it too")
        }
        return found
    }

    private func readAll(overview pixels: GreyImage, shrink: Int, scanners: Scanners,
                         fullResolution: (PixelBox) throws -> (pixels: GreyImage, origin: PixelBox),
                         onPassFailed: (any Error) -> Void) throws -> PhotoBarcodes {
        let spacing = scanners.overviewDensity == scanners.frameDensity ? ""
            : ", every \(scanners.overviewDensity)th line, each counted as \(scanners.overviewDensity / scanners.frameDensity)"
        let source = "ZBar, the overview (1/\(shrink), \(pixels.width)×\(pixels.height)\(spacing))"
        let read = trace.readings(of: scanners.scanOverview(pixels), "overview", source)
        let whole = trace.withoutConflicts(trace.kept(read, "overview", source, because: QuietZone.rule(rules)
            + ", and zxing-cpp does not read the same code there") {
            !QuietZone.isPartial($0, in: pixels, rules: rules) || isWholeByZXing($0, in: pixels, scanners: scanners)
        }, "overview", source)
        let trusted = try trace.kept(whole, "overview", source, because: "read by fewer than \(rules.trustedLines) scan lines: "
            + "left to the regions", isTrusted).filter { reading in
            let (stands, because) = try stands(reading, in: pixels, scanners: scanners)
            trace?.note("overview", source, reading, stands ? "kept" : "dropped", because: because)
            return stands
        }
        if !trusted.isEmpty {
            let all = try trusted + finerQRCodes(inside: trusted, in: pixels, scanners: scanners)
            return PhotoBarcodes(confirmed: all.map { $0.scaled(by: shrink) })
        }
        var tried: [BarcodeCandidate] = []
        let found = try readCandidates(overview: pixels, shrink: shrink, scanners: scanners, tried: &tried,
                                       fullResolution: fullResolution, onPassFailed: onPassFailed)
        if !found.isEmpty { return PhotoBarcodes(confirmed: found) }
        let evidence = try secondLook(overview: pixels, candidates: tried, weak: whole, scanners: scanners)
        for reading in evidence.accepted {
            trace?.note("second look", "evidence", reading, "confirmed", because: "read independently by " + evidence.support(of: reading))
        }
        return PhotoBarcodes(confirmed: evidence.accepted.map { $0.scaled(by: shrink) },
                             unconfirmed: evidence.accepted.isEmpty ? evidence.unconfirmed.map { $0.scaled(by: shrink) } : [])
    }

    /// A QR code, or a linear code read by `rules.trustedLines` or more: a weaker read across the
    /// whole frame is dropped, and the candidate regions, read upright and at full resolution,
    /// decide instead.
    func isTrusted(_ reading: BarcodeReading) -> Bool {
        reading.symbology == .qr || reading.quality >= rules.trustedLines
    }

    /// A weak read of a region is confirmed by a copy smoothed along its bars over this many rows
    /// (among others): fewer keep a copy's noise, more blur a tilted or curved code's bars apart.
    static let confirmingRows = 5

    /// Only regions up to this long edge (overview pixels) are worth a full-resolution look: a code
    /// too fine for the overview is small there; a large region that did not read is text or pattern.
    static let smallRegionEdge = 256

    /// Only regions this light or darker are worth a full-resolution look (see `GreyImage.lightness`).
    /// Bars and modules are about half ink: on the hard set every code read at full resolution had
    /// at most 0.74; the small logos and lines of text on fronts and labels are mostly background,
    /// 0.85 to 0.92, and would each cost a partial decode for nothing.
    static let maximumLightness = 0.8

    private func readCandidates(overview pixels: GreyImage, shrink: Int, scanners: Scanners,
                                tried: inout [BarcodeCandidate],
                                fullResolution: (PixelBox) throws -> (pixels: GreyImage, origin: PixelBox),
                                onPassFailed: (any Error) -> Void) throws -> [BarcodeReading] {
        var found: [BarcodeReading] = []
        var unread: [BarcodeCandidate] = []
        let grid = CellGrid(pixels)
        try withoutActuallyEscaping(fullResolution) { fullResolution in
            let finer = shrink > 1 ? FullResolution(shrink: shrink, pixels: fullResolution) : nil
            for pass in [locator, faintLocator] {
                // A photo that gave a code needs no second look. A faint region is tried unless it is
                // one already tried: it may also be a whole code whose stronger parts were tried alone.
                // Bars inside a 2-D region tried are tried again, turned upright (`BarcodeLocator.bars`).
                if pass.minimumEnergy < locator.minimumEnergy && !found.isEmpty { break }
                let candidates = grid.map(pass.candidates(in:)) ?? []
                if candidates.isEmpty {
                    trace?.note("region", "the locator" + (pass.minimumEnergy < locator.minimumEnergy ? ", looking for faint print" : ""),
                                nil, "nothing", because: "no region of the overview looks like a code (one too small there is not found)")
                }
                for candidate in candidates
                where !tried.contains(where: { $0.box.covers(candidate.box) && ($0.isLinear || !candidate.isLinear) }) {
                    tried.append(candidate)
                    let source = "region \(tried.count) " + candidate.description
                    // A 2-D region's bars, found apart, are where the template reader judges its reads.
                    let bars = candidate.isLinear ? [] : candidates.filter { $0.isLinear && candidate.box.covers($0.box) }
                    let readings = try read(candidate, in: pixels, scanners: scanners, step: "region", source: source)
                        .filter { try !isOverruled($0, candidate: candidate, bars: bars, in: pixels, fullResolution: finer,
                                                   scanners: scanners, step: "region", source: source) }
                    if readings.isEmpty && max(candidate.box.width, candidate.box.height) <= Self.smallRegionEdge
                        && pixels.lightness(of: candidate.box) <= Self.maximumLightness {
                        unread.append(candidate)
                    }
                    found += readings.map { $0.placed(at: candidate.box.scaled(by: shrink)) }
                }
            }
        }
        guard shrink > 1, !unread.isEmpty else { return found }

        // One partial decode of the rectangle around them. The overview decoded fine, so a failure
        // here is no reason to refuse the photo: it keeps what was read.
        do {
            let boxes = unread.map { $0.box.scaled(by: shrink) }
            let (grey, origin) = try fullResolution(boxes.dropFirst().reduce(boxes[0]) { $0.union($1) })
            trace?.note("full resolution", "the rectangle \(origin) around \(unread.count) small unread region(s)", nil, "decoded",
                        because: "regions this small and dark may hold a code too fine for the overview")
            for (candidate, box) in zip(unread, boxes) {
                var upright = candidate
                upright.box = box.relative(to: origin)
                guard upright.box.width >= 8, upright.box.height >= 8 else { continue }
                let placed = upright.box.placed(in: origin)
                // The overview could not tell bars from modules; at full resolution it can: a 1-D
                // code found here is read turned upright, enlarged and smoothed like any other.
                var attempts = [upright]
                if !candidate.isLinear,
                   let bars = locator.candidates(in: grey.cropped(to: upright.box)).first(where: \.isLinear) {
                    var linear = bars
                    linear.box = bars.box.placed(in: upright.box)
                    attempts.insert(linear, at: 0)
                }
                for attempt in attempts {
                    let source = "full-resolution region " + attempt.description
                    let step = "full resolution"
                    let readings = try read(attempt, in: grey, scanners: scanners, fullResolution: true, step: step, source: source)
                        .filter { try !isOverruled($0, candidate: attempt, in: grey, scanners: scanners, step: step, source: source) }
                    found += readings.map { $0.placed(at: placed) }
                    if !readings.isEmpty { break }
                }
            }
        } catch {
            onPassFailed(error)
        }
        return found
    }
}

extension BarcodeReading {
    /// The reading located at `box` (a region read out of context has only region coordinates).
    func placed(at box: PixelBox) -> BarcodeReading {
        var copy = self
        copy.box = box
        return copy
    }
}
