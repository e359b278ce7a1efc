import Catalog
import Foundation
import Views

/// What `ingest list` prints, written chunk by chunk as captures arrive, so that `--all` over a
/// million captures needs no more memory than one chunk: an aligned table (aligned per chunk) or
/// one JSON array.
struct CaptureListOutput {
    /// Captures written at once by `--all`.
    static let chunkSize = 1000

    private let isJSON: Bool
    private let agents: [String: Agent]
    private var wroteAny = false

    static func table(agents: [String: Agent]) -> CaptureListOutput { CaptureListOutput(isJSON: false, agents: agents) }
    static func json(agents: [String: Agent]) -> CaptureListOutput { CaptureListOutput(isJSON: true, agents: agents) }

    private init(isJSON: Bool, agents: [String: Agent]) {
        self.isJSON = isJSON
        self.agents = agents
    }

    /// Writes `captures` after those written before, with their `products` (by GTIN-13) and, in
    /// JSON, their photos' hits and what their print says from `catalogue`.
    mutating func write(_ captures: [Capture], products: [String: Product], catalogue: Catalogue) throws {
        guard !captures.isEmpty else { return }
        if isJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let hits = try catalogue.hits(ofCaptures: captures.map(\.id))
            let packageTexts = try catalogue.packageText(ofCaptures: captures.map(\.id))
            let elements = captures.map { capture in
                let json = CaptureJSON(capture, agents: agents, product: capture.gtin13.flatMap { products[$0] },
                                       hits: hits[capture.id] ?? [], packageText: packageTexts[capture.id])
                let text = String(decoding: (try? encoder.encode(json)) ?? Data(), as: UTF8.self)
                return "  " + text.replacingOccurrences(of: "\n", with: "\n  ")
            }
            emit((wroteAny ? ",\n" : "[\n") + elements.joined(separator: ",\n"))
        } else {
            emit(CaptureTable(captures: captures, agents: agents, products: products, header: !wroteAny).text)
        }
        wroteAny = true
    }

    /// Ends the output: closes the JSON array, or says that nothing matched.
    func finish() {
        if isJSON {
            emit(wroteAny ? "\n]\n" : "[]\n")
        } else if !wroteAny {
            emit("no captures\n")
        }
    }

    private func emit(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
