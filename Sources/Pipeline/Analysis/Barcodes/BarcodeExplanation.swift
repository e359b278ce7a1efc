import Imaging
import Vocabulary
package import SystemPackage

/// How the barcodes of one photo were read: every read each step made and what became of it
/// (`ReadTrace`), then the codes the photo gave. What `ingest explain` prints.
package struct BarcodeExplanation: Sendable, Encodable {
    package var photo: String
    /// The photo's stored size, and how much its overview was shrunk on load.
    package var width: Int
    package var height: Int
    package var overviewShrink: Int
    package var events: [ReadTrace.Event]
    /// The codes the photo gave; a run catalogues them.
    package var codes: [String]
    /// Linear codes read once: a run catalogues them when another photo of the set reads them too.
    package var unconfirmed: [String]
    /// The add-on read beside each code that has one, by code.
    package var addons: [String: String]
    /// What zxing-cpp alone reads on the whole photo at full resolution, also turned, shrunk and
    /// inverted as its own defaults try: not a step of reading (too slow for every photo), a
    /// reference. A code given here and not above is one the steps never looked at the right way;
    /// none here means the decoder ingest links cannot read it.
    /// Nil when the full-resolution pixels could not be decoded, or the reference was not asked for.
    package var zxingOnWholePhoto: [String]?
}

extension PhotoAnalyzer {
    /// How the barcodes of the photo at `path` are read, as a run reads them: decoded once as a
    /// run decodes it, with the configuration's symbologies. Throws `PhotoError` for a file a run
    /// would quarantine. `rules`: the thresholds to read with (`bench/fit_rules.py` tries others).
    /// `reference`: whether to read the whole photo with zxing-cpp too (`zxingOnWholePhoto`); on a
    /// 12 MP photo that costs more than reading it.
    package func explainBarcodes(ofPhotoAt path: FilePath, rules: AcceptanceRules = .fitted, reference: Bool = true) throws -> BarcodeExplanation {
        try explainBarcodes(ofPhotoAt: path, each: [rules], reference: reference)[0]
    }

    /// The photo read with each of `rules` in turn, one explanation each: decoded once, and each
    /// rectangle decoded again at full resolution once, for all of them (how `bench/fit_rules.py`
    /// reads every photo with 128 combinations of thresholds). Each reading is a run's, with
    /// scanners of its own.
    package func explainBarcodes(ofPhotoAt path: FilePath, each rules: [AcceptanceRules], reference: Bool = true) throws -> [BarcodeExplanation] {
        let snapshot = try FileSnapshot.read(path, maxBytes: config.maxFileBytes)
        let decoded: DecodedPhoto
        do {
            decoded = try decoder.decode(snapshot.bytes)
        } catch {
            throw PhotoError.image(error)
        }
        // A JPEG's luminance as the references read it (the overview is its green band); else the
        // grey pixels kept at full resolution, or the overview when it is the whole photo unshrunk.
        let frame = PixelBox(x: 0, y: 0, width: decoded.header.width, height: decoded.header.height)
        let whole = !reference ? nil : (try? decoded.fullResolution(frame, from: snapshot.bytes).pixels) ?? (decoded.shrink == 1 ? decoded.overview : nil)
        let zxing = whole.map { ZXingScanner(symbologies: config.symbologies).scan($0, ways: .every).compactMap(GTIN.reading(from:)).map(\.productKey) }
        var decodedAgain: [(box: PixelBox, result: Result<(pixels: GreyImage, origin: PixelBox), ImageError>)] = []
        let memo = rules.count > 1 ? ReadMemo() : nil
        return try rules.map { rules in
            let trace = ReadTrace()
            let reader = BarcodeReader(symbologies: config.symbologies, rules: rules, trace: trace, memo: memo)
            let reads = try barcodes(of: decoded, bytes: snapshot.bytes, with: reader, file: path.string) { box in
                if let done = decodedAgain.first(where: { $0.box == box }) { return try done.result.get() }
                let result = Result { () throws(ImageError) in try decoded.fullResolution(box, from: snapshot.bytes) }
                decodedAgain.append((box, result))
                return try result.get()
            }
            let codes = Self.deduplicated(reads.confirmed)
            return BarcodeExplanation(photo: path.string, width: decoded.header.width, height: decoded.header.height,
                                      overviewShrink: decoded.shrink, events: trace.events, codes: codes.map(\.productKey),
                                      unconfirmed: Self.deduplicated(reads.unconfirmed).map(\.productKey),
                                      addons: Dictionary(codes.compactMap { code in code.addon.map { (code.productKey, $0) } }) { first, _ in first },
                                      zxingOnWholePhoto: zxing.map { Array(Set($0)).sorted() })
        }
    }
}
