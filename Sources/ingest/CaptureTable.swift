import Catalog
import Foundation
import Vocabulary

/// `ingest list` as a person reads it: one aligned row per capture under a header.
struct CaptureTable {
    var captures: [Capture]
    var agents: [String: Agent]
    /// The captures' products, by GTIN-13.
    var products: [String: Product]
    /// Whether the column names come first.
    var header = true

    /// Long set and agent names are cut to this many characters.
    static let maximumCell = 28

    var text: String {
        guard !captures.isEmpty else { return "no captures\n" }
        let idLength = Self.uniquePrefixLength(of: captures.map(\.id))
        let titles = [["ID", "CAPTURED", "SET", "BARCODE", "PRODUCT", "PHOTOS", "RATING", "AGENT"]]
        let rows = (header ? titles : []) + captures.map { capture in
            [
                String(capture.id.prefix(idLength)),
                Self.readable(capture.capturedAt),
                Self.cut(capture.setName),
                TerminalText.escaped(capture.barcode ?? "-"),
                Self.cut(capture.gtin13.flatMap { products[$0] }.map(ProductDescription.title) ?? capture.fallbackProductName),
                String(capture.photoCount),
                capture.rating.rawValue,
                Self.cut(capture.agentName(latestIn: agents) ?? "-"),
            ]
        }
        let widths = titles[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    /// At least 8 characters, more where the listed ids would otherwise look alike.
    static func uniquePrefixLength(of ids: [String]) -> Int {
        var length = 8
        while length < (ids.map(\.count).max() ?? 0), Set(ids.map { $0.prefix(length) }).count < ids.count {
            length += 1
        }
        return length
    }

    /// `2026-11-20T09:00:00.674+01:00` → `2026-11-20 09:00:00+01:00`.
    static func readable(_ time: String) -> String {
        var text = time.replacingOccurrences(of: "T", with: " ")
        if let dot = text.firstIndex(of: ".") {
            let end = text[dot...].firstIndex { !$0.isNumber && $0 != "." } ?? text.endIndex
            text.removeSubrange(dot..<end)
        }
        return text
    }

    /// `text` escaped for a terminal, cut to `maximumCell` characters.
    private static func cut(_ text: String) -> String {
        let text = TerminalText.escaped(text)
        return text.count <= maximumCell ? text : text.prefix(maximumCell - 1) + "…"
    }
}
