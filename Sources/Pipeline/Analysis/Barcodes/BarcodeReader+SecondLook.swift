import Catalog
import Imaging

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

    func secondLook(overview pixels: GreyImage, candidates: [BarcodeCandidate], weak: [BarcodeReading],
                    scanners: Scanners) throws -> Evidence {
        var evidence = Evidence()
        for reading in weak { evidence.add(reading, from: Evidence.Source(decoder: "ZBar", view: "×1")) }
        for copy in try Self.copies(of: pixels, candidates: candidates) {
            let image = try copy.image()
            let whole = { (reading: BarcodeReading) in !QuietZone.isPartial(reading, in: image) }
            for reading in scanners.zxing.scan(image).compactMap(GTIN.reading(from:)).filter(whole) {
                evidence.add(reading.placed(at: copy.place(reading.box)), from: Evidence.Source(decoder: "zxing", view: copy.view))
            }
            if copy.withZBar {
                // Every line, also of enlarged copies: scanning those at every second line instead
                // (as many lines per original pixel) let ZBar confirm its own misreads at two scales.
                for reading in scanners.frame.scan(image).compactMap(GTIN.reading(from:)).filter(whole) {
                    evidence.add(reading.placed(at: copy.place(reading.box)), from: Evidence.Source(decoder: "ZBar", view: copy.view))
                }
            }
            if !evidence.accepted.isEmpty { break }
        }
        return evidence
    }

    /// One prepared copy: how to make it (only when it is reached), and how its boxes map back to
    /// the overview.
    struct PreparedCopy {
        /// What a decoder sees in it, for telling independent reads apart (`Evidence`): its scale,
        /// or its polarity; sharpening or stretching the levels at one scale does not count.
        var view: String
        var withZBar: Bool
        var image: () throws -> GreyImage
        var place: (PixelBox) -> PixelBox
    }

    /// The copies, cheapest and most often useful first (measured on ../shared/realphotos).
    static func copies(of pixels: GreyImage, candidates: [BarcodeCandidate]) throws -> [PreparedCopy] {
        var copies: [PreparedCopy] = []
        let area = pixels.width * pixels.height
        let whole = PixelBox(x: 0, y: 0, width: pixels.width, height: pixels.height)
        if area <= secondLookPixels {
            let margin = max(8, max(pixels.width, pixels.height) / 10)
            let unpad = { (box: PixelBox, scale: Double) in
                PixelBox(x: Int(Double(box.x) / scale) - margin, y: Int(Double(box.y) / scale) - margin,
                         width: Int(Double(box.width) / scale), height: Int(Double(box.height) / scale))
                    .clamped(width: pixels.width, height: pixels.height)
            }
            // Padding changes what the decoders see only at the frame's edge: a read of the padded
            // copy is not independent of one of the overview (both "×1").
            copies.append(PreparedCopy(view: "×1", withZBar: true,
                                       image: { pixels.padded(by: margin) }, place: { unpad($0, 1) }))
            for scale in [2.0, 3.0, 1.5] where Double(area) * scale * scale <= 4 * Double(secondLookPixels) {
                copies.append(PreparedCopy(view: "×\(scale)", withZBar: true, image: {
                    let padded = pixels.padded(by: margin)
                    return try padded.region(PixelBox(x: 0, y: 0, width: padded.width, height: padded.height),
                                             angle: 0, scale: scale, smoothRows: 1)
                }, place: { unpad($0, scale) }))
            }
            copies.append(PreparedCopy(view: "×2.0", withZBar: true, image: {
                let padded = pixels.padded(by: margin)
                return try padded.region(PixelBox(x: 0, y: 0, width: padded.width, height: padded.height),
                                         angle: 0, scale: 2, smoothRows: 1).sharpened()
            }, place: { unpad($0, 2) }))
            copies.append(PreparedCopy(view: "×1", withZBar: true,
                                       image: { pixels.stretched().padded(by: margin) }, place: { unpad($0, 1) }))
            copies.append(PreparedCopy(view: "inverted", withZBar: true,
                                       image: { pixels.inverted().padded(by: margin) }, place: { unpad($0, 1) }))
        }
        // Regions about half ink only, as for the full-resolution pass: logos and lines of text on
        // white are most of what the locator finds on fronts and labels.
        for candidate in candidates where (!candidate.box.covers(whole) || area > secondLookPixels)
            && pixels.lightness(of: candidate.box) <= BarcodeReader.maximumLightness {
            let scale = min(3, max(1.5, 700 / Double(max(candidate.box.width, candidate.box.height))))
            copies.append(PreparedCopy(view: "region", withZBar: false, image: {
                try pixels.region(candidate.box, angle: candidate.isLinear ? candidate.angle : 0, scale: scale, smoothRows: 1)
            }, place: { _ in candidate.box }))
        }
        return copies
    }
}

/// Reads of one photo from differently prepared copies and decoders, and which of them count.
///
/// A QR code counts at once: its Reed–Solomon code corrects errors and detects the rest, so a
/// misread that decodes is all but impossible. A linear code has only its check digit, which one
/// misread in ten passes: it counts when read twice independently — by the two decoders, or by one
/// decoder at two scales or polarities. Not by one decoder on a sharpened or stretched copy of the
/// same scale (ZBar repeated its misreads there), nor once however many scan lines agreed (a
/// sharpened copy of a blurred code gave a misread 46 lines agreed on). Reads of a part of a code were dropped before (`QuietZone`):
/// a decoder repeats those at every scale. On the real photos every wrong read left was read once.
struct Evidence {
    /// Per code: the decoders and views it was read by.
    private var sources: [String: Set<Source>] = [:]
    private var first: [String: BarcodeReading] = [:]
    private var order: [String] = []

    struct Source: Hashable {
        var decoder: String
        var view: String
    }

    mutating func add(_ reading: BarcodeReading, from source: Source) {
        let key = "\(reading.symbology == .qr ? "qr" : "linear"):\(reading.productKey)"
        if first[key] == nil {
            first[key] = reading
            order.append(key)
        }
        sources[key, default: []].insert(source)
        if reading.quality > first[key]!.quality { first[key]!.quality = reading.quality }
    }

    var accepted: [BarcodeReading] {
        order.compactMap { counts($0) ? first[$0] : nil }
    }

    /// The linear codes read once: not enough alone, but a second photo of the set may read them.
    var unconfirmed: [BarcodeReading] {
        order.compactMap { counts($0) ? nil : first[$0] }
    }

    private func counts(_ key: String) -> Bool {
        first[key]!.symbology == .qr || sources[key]!.count >= 2
    }
}
