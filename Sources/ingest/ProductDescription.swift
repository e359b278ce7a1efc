import Catalog
import Foundation
import Vocabulary

/// A product as `show` and `products show` print it: name and brand, then quantity, nutrition per
/// 100 g, scores, categories and where the data came from, each line starting with `indent`; the
/// dump's text escaped for a terminal (`TerminalText`).
struct ProductDescription {
    var product: Product
    var indent: String

    /// Nutrition per 100 g in the order shown, with its unit.
    private var nutrition: [(String, Double?, String)] {
        [
            ("energy", product.energyKcal, "kcal"), ("fat", product.fat, "g"), ("saturated fat", product.saturatedFat, "g"),
            ("carbohydrates", product.carbohydrates, "g"), ("sugars", product.sugars, "g"), ("fiber", product.fiber, "g"),
            ("proteins", product.proteins, "g"), ("salt", product.salt, "g"),
        ]
    }

    var lines: [String] {
        var lines = [Self.title(product) + (product.quantity.map { ", \(TerminalText.escaped($0))" } ?? "")]
        let known = nutrition.compactMap { name, value, unit in value.map { "\(name) \(Self.number($0)) \(unit)" } }
        lines.append("per 100 g: " + (known.isEmpty ? "no nutrition data" : known.joined(separator: ", ")))
        let scores = [product.nutriscoreGrade.map { "Nutri-Score \($0.uppercased())" }, product.novaGroup.map { "NOVA \($0)" }]
        if !scores.compactMap({ $0 }).isEmpty { lines.append(scores.compactMap { $0 }.joined(separator: ", ")) }
        if let categories = product.categories { lines.append("categories: \(TerminalText.escaped(categories))") }
        if let serving = product.servingSize { lines.append("serving: \(TerminalText.escaped(serving))") }
        lines.append("source: \(product.source.rawValue)" + (product.lastModified.map { ", dump row modified \(Self.time($0))" } ?? ""))
        return lines.enumerated().map { $0.offset == 0 ? $0.element : indent + $0.element }
    }

    /// `Nutella — Ferrero`, or the name alone; `(no name)` when the source has none.
    static func title(_ product: Product) -> String {
        TerminalText.escaped((product.name ?? "(no name)") + (product.brands.map { " — \($0)" } ?? ""))
    }

    /// `539`, `30.9`, `0.107`: as few decimals as the value needs, at most three.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `2023-11-14 22:13 UTC` from seconds since 1970.
    static func time(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds))).prefix(16) + " UTC"
    }
}
