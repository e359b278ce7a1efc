import Imaging
import Synchronization
import Vocabulary

/// What reading one photo's barcodes did, step by step, for `ingest explain`: every read a decoder
/// made, in which prepared copy, and what became of it and by which rule. A reader records into
/// one only when given one (`BarcodeReader(symbologies:trace:)`); reading is the same either way.
package final class ReadTrace: Sendable {
    package struct Event: Sendable, Encodable, Equatable {
        /// The step of reading: `overview`, `region`, `full resolution`, `second look`, `set`, or
        /// `decision` for what the photo's reading gave.
        package var step: String
        /// Who read or judged, and what they read: the decoder and the prepared copy.
        package var source: String
        package var code: String?
        package var symbology: String?
        /// The scan lines that agreed on a linear code (ZBar's quality), where a decoder gives them.
        package var lines: Int?
        /// The add-on read beside the code, once it is.
        package var addon: String?
        /// `read`, `kept`, `dropped`, `confirmed`, or `unconfirmed`; without a code, `nothing` (a region
        /// tried that gave no code that counts) or `decoded` (the rectangle decoded at full resolution).
        package var outcome: String
        /// The rule or evidence behind the outcome.
        package var because: String?
    }

    private let recorded = Mutex<[Event]>([])

    package init() {}

    package var events: [Event] { recorded.withLock { $0 } }

    func note(_ step: String, _ source: String, _ reading: BarcodeReading?, _ outcome: String, because: String? = nil) {
        let event = Event(step: step, source: source, code: reading.map(\.productKey), symbology: reading?.symbology.rawValue,
                          lines: reading.map(\.quality), addon: reading?.addon, outcome: outcome, because: because)
        recorded.withLock { $0.append(event) }
    }

    func note(_ step: String, _ source: String, _ symbol: DecodedSymbol, _ outcome: String, because: String? = nil) {
        let event = Event(step: step, source: source, code: symbol.text, symbology: symbol.symbology.rawValue,
                          lines: symbol.quality, addon: nil, outcome: outcome, because: because)
        recorded.withLock { $0.append(event) }
    }
}

extension Optional where Wrapped == ReadTrace {
    /// `symbols` as readings, each noted as read (a retail code as its GTIN-13); those that are
    /// not a sound code (a retail code's length or check digit, empty text) noted as dropped.
    func readings(of symbols: [DecodedSymbol], _ step: String, _ source: String) -> [BarcodeReading] {
        symbols.compactMap { symbol in
            guard let reading = GTIN.reading(from: symbol) else {
                self?.note(step, source, symbol, "read")
                self?.note(step, source, symbol, "dropped", because: "not a sound code: length or check digit")
                return nil
            }
            self?.note(step, source, reading, "read")
            return reading
        }
    }

    /// The readings `keep` accepts; the others noted as dropped `because`.
    func kept(_ readings: [BarcodeReading], _ step: String, _ source: String, because: String,
              _ keep: (BarcodeReading) throws -> Bool) rethrows -> [BarcodeReading] {
        try readings.filter { reading in
            let kept = try keep(reading)
            if !kept { self?.note(step, source, reading, "dropped", because: because) }
            return kept
        }
    }

    /// `readings` without those another code's read contradicts (`withoutConflicts`), noted as dropped.
    func withoutConflicts(_ readings: [BarcodeReading], _ step: String, _ source: String) -> [BarcodeReading] {
        for reading in readings.conflicted() {
            self?.note(step, source, reading, "dropped", because: "another code was read across the same bars (a misread)")
        }
        return readings.withoutConflicts()
    }
}
