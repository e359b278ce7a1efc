import Catalog
import Foundation

/// What `ingest list` prints, written chunk by chunk as captures arrive, so that `--all` over a
/// million captures needs no more memory than one chunk: an aligned table (aligned per chunk) or
/// one JSON array.
struct CaptureListOutput {
    /// Captures written at once by `--all`.
    static let chunkSize = 1000

    private let isJSON: Bool
    private let agents: [String: Agent]
    /// Where the products of each chunk's captures are looked up.
    private let catalogue: Catalogue
    private var wroteAny = false

    static func table(agents: [String: Agent], catalogue: Catalogue) -> CaptureListOutput {
        CaptureListOutput(isJSON: false, agents: agents, catalogue: catalogue)
    }

    static func json(agents: [String: Agent], catalogue: Catalogue) -> CaptureListOutput {
        CaptureListOutput(isJSON: true, agents: agents, catalogue: catalogue)
    }

    private init(isJSON: Bool, agents: [String: Agent], catalogue: Catalogue) {
        self.isJSON = isJSON
        self.agents = agents
        self.catalogue = catalogue
    }

    /// Writes `captures` after those written before.
    mutating func write(_ captures: [Capture]) throws {
        guard !captures.isEmpty else { return }
        let products = try catalogue.products(forGTIN13s: captures.compactMap(\.gtin13))
        if isJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let elements = captures.map { capture in
                let text = String(decoding: (try? encoder.encode(CaptureJSON(capture, agents: agents, product: capture.gtin13.flatMap { products[$0] }))) ?? Data(), as: UTF8.self)
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
