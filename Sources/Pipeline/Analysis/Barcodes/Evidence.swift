import Vocabulary
/// Reads of one photo from differently prepared copies and decoders, and which of them count.
///
/// A QR code counts at once: its Reed–Solomon code corrects errors and detects the rest, so a
/// misread that decodes is all but impossible. A linear code has only its check digit, which one
/// misread in ten passes: it counts when read twice independently — by two decoders (ZBar, zxing-cpp,
/// the template reader). Not by one decoder on two copies of the same pixels, whatever their scale,
/// polarity, sharpening or levels: one decoder repeats its misreads across copies (ZBar read a UPC-E
/// out of half a cut UPC-A on its ×1.5 and ×2 copies), so it is one witness. Nor once however many
/// scan lines agreed on such a copy (a sharpened copy of a blurred code gave a misread 46 lines
/// agreed on); only zxing-cpp's
/// read of a photo's overview as it is, by as many rows as a ZBar read of the overview needs
/// to count alone (`standAlone`). Reads of a part of a code were dropped before (`QuietZone`): a
/// decoder repeats those at every scale. A read among reads of other codes across the same bars
/// (`withoutConflicts`) is no evidence until the template reader confirms it.
struct Evidence {
    /// Per code: the decoders and views it was read by.
    private var sources: [String: Set<Source>] = [:]
    private var first: [String: BarcodeReading] = [:]
    private var order: [String] = []
    /// Conflicted reads, and the decoders and views that made them.
    private var conflicts: [String: (reading: BarcodeReading, sources: Set<Source>)] = [:]
    private var conflictOrder: [String] = []
    /// Codes the template reader overruled: neither accepted nor kept as unconfirmed.
    private var rejected: Set<String> = []
    /// Codes that count read once: read by as many lines as a code needs to stand alone.
    private var standing: Set<String> = []

    /// Who read a code, and in which prepared copy.
    struct Source: Hashable {
        var decoder: String
        var view: String
    }

    private func key(_ reading: BarcodeReading) -> String {
        "\(reading.symbology == .qr ? "qr" : "linear"):\(reading.decodedKey)"
    }

    mutating func add(_ reading: BarcodeReading, from source: Source) {
        let key = key(reading)
        if first[key] == nil {
            first[key] = reading
            order.append(key)
        }
        sources[key, default: []].insert(source)
        if reading.quality > first[key]!.quality { first[key]!.quality = reading.quality }
        // zxing-cpp's text of a Code 128 holds what ZBar's drops (FNC4): the code as it is.
        if BarcodeReader.isExtended(reading.text, of: first[key]!.text) { first[key]!.text = reading.text }
    }

    /// Keeps a conflicted read aside: no evidence alone.
    mutating func addConflicted(_ reading: BarcodeReading, from source: Source) {
        let key = key(reading)
        if conflicts[key] == nil {
            conflicts[key] = (reading, [])
            conflictOrder.append(key)
        }
        conflicts[key]!.sources.insert(source)
    }

    /// Adds the template reader's confirmation of a code read once, or only among others: with it,
    /// the conflicted reads of the code count as evidence like any other.
    mutating func confirmByTemplate(_ reading: BarcodeReading) {
        if let conflict = conflicts[key(reading)] {
            for source in conflict.sources { add(conflict.reading, from: source) }
        }
        add(reading, from: Source(decoder: "template", view: "×1"))
    }

    /// Lets a code read once count: it was read by enough lines (`AcceptanceRules.confirmedLines`).
    mutating func standAlone(_ reading: BarcodeReading) {
        standing.insert(key(reading))
    }

    mutating func reject(_ reading: BarcodeReading) {
        rejected.insert(key(reading))
    }

    /// True when ZBar and zxing-cpp both read `reading`'s code, one of the reads by `lines` lines
    /// or more: the template reader, whose fit can drift off the bars (a code photographed at an
    /// angle, whose module widths grow across it), does not overrule two decoders that agree on a
    /// clear read. Two weak reads can share a misread (a damaged UPC-A: ZBar on 16 lines, zxing-cpp
    /// on 3), and then the template reader decides.
    func isReadByBothDecoders(_ reading: BarcodeReading, oneBy lines: Int) -> Bool {
        let decoders = Set((sources[key(reading)] ?? []).map(\.decoder))
        return decoders.contains("ZBar") && decoders.contains("zxing") && (first[key(reading)]?.quality ?? 0) >= lines
    }

    var accepted: [BarcodeReading] {
        order.compactMap { counts($0) && !rejected.contains($0) ? first[$0] : nil }
    }

    /// The linear codes read once: not enough alone, but a second photo of the set may read them.
    var unconfirmed: [BarcodeReading] {
        order.compactMap { counts($0) || rejected.contains($0) ? nil : first[$0] }
    }

    /// The conflicted reads of codes not read otherwise.
    var conflicted: [BarcodeReading] {
        conflictOrder.compactMap { first[$0] == nil && !rejected.contains($0) ? conflicts[$0]!.reading : nil }
    }

    /// Who read `reading`'s code and where, for the trace: "ZBar ×1, zxing ×2.0".
    func support(of reading: BarcodeReading) -> String {
        (sources[key(reading)] ?? []).map { "\($0.decoder) \($0.view)" }.sorted().joined(separator: ", ")
    }

    private func counts(_ key: String) -> Bool {
        first[key]!.symbology == .qr || Set(sources[key]!.map(\.decoder)).count >= 2 || standing.contains(key)
    }
}
