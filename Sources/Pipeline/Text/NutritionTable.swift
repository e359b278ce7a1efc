package import Catalog
import Foundation

/// The nutrition table in a photo's text: each nutrient's row found by its name in English,
/// French or German (as the EU, French and US layouts print them), its value the first number
/// after the name, in grams per 100 g (energy in kJ and kcal), with the misreadings of print that
/// OCR makes in tables.
package enum NutritionTable {
    /// The names that start each nutrient's row, folded (lowercase, no accents), tried in this
    /// order: a row of saturates or sugars also names fat or carbohydrate ("saturated fat"). Computed:
    /// a key path is not `Sendable`.
    private static var rows: [(path: WritableKeyPath<LabelNutrition, Double?>, names: [String])] {
        [
            (\.saturates, ["saturates", "saturated", "satures", "gesattigte"]),
            (\.sugars, ["sugars", "sugar", "sucres", "zucker"]),
            (\.fibre, ["fibre", "fibres", "fiber", "ballaststoffe"]),
            (\.fat, ["fat", "matieres grasses", "lipides", "fett"]),
            (\.carbohydrate, ["carbohydrate", "carbohydrates", "glucides", "kohlenhydrate"]),
            (\.protein, ["protein", "proteins", "proteines", "eiweiss", "eiweiß"]),
            (\.salt, ["salt", "sel", "salz"]),
        ]
    }

    /// At least this many values make a table: a front photo may say "Protein 20 g" once.
    static let minimumValues = 3

    /// The table the `lines` of a photo's text hold, or nil when they hold none.
    package static func read(_ lines: [String]) -> LabelNutrition? {
        var table = LabelNutrition()
        var sodium: Double?
        var bare: [WritableKeyPath<LabelNutrition, Double?>] = []
        var withUnits = 0
        let folded = lines.map(Catalogue.fold)
        for line in folded {
            readEnergy(line, into: &table)
            if let row = rows.first(where: { row in row.names.contains { find($0, in: line) != nil } }),
               table[keyPath: row.path] == nil,
               let name = row.names.compactMap({ find($0, in: line) }).first,
               let grams = grams(after: name, in: line, decimals: row.path == \.salt ? 2 : 1) {
                table[keyPath: row.path] = grams.value
                if grams.hasUnit { withUnits += 1 } else if grams.cutShort { bare.append(row.path) }
            } else if let name = find("sodium", in: line) ?? find("natrium", in: line), sodium == nil {
                sodium = grams(after: name, in: line, decimals: 3)?.value
            }
        }
        // A whole number that ends its row without the unit the table's other rows print was cut
        // short (the rest of it, "8.9g" of "18.9g", dropped as unsure): not read rather than
        // misread. With its decimals ("24.4"), only the unit was lost.
        if withUnits >= minimumValues - 1, withUnits > bare.count {
            for path in bare { table[keyPath: path] = nil }
        }
        // Salt is sodium × 2.5 (EU Regulation 1169/2011, Annex XIV), where only sodium is printed.
        if table.salt == nil, let sodium { table.salt = (sodium * 2.5 * 1000).rounded() / 1000 }
        guard table.count >= minimumValues else { return nil }
        readBasis(folded, into: &table)
        return table
    }

    /// The kJ and kcal of an energy row ("Energy 998 kJ / 239 kcal", "Calories 239").
    private static func readEnergy(_ line: String, into table: inout LabelNutrition) {
        let named = ["energy", "energie", "brennwert", "calories", "kcal", "kj"].contains { find($0, in: line) != nil }
        guard named else { return }
        if table.energyKJ == nil, let kj = number(before: #"\s*k\s*[jJ]\b"#, in: line), kj <= 4000 { table.energyKJ = kj }
        // "kcal", and its misreadings "keal", "kcai", "kca1".
        if table.energyKcal == nil, let kcal = number(before: #"\s*k\s*[ceo]\s*[ae]\s*[l1i]"#, in: line), kcal <= 950 {
            table.energyKcal = kcal
        }
        if table.energyKcal == nil, let name = find("calories", in: line), let kcal = firstNumber(after: name, in: line),
           kcal.value <= 950 {
            table.energyKcal = kcal.value
        }
    }

    /// Whether the table is per 100 g (or ml) or per serving: per 100 g unless only a serving is named.
    private static func readBasis(_ lines: [String], into table: inout LabelNutrition) {
        let per100 = lines.contains { $0.range(of: #"(per|pour|pro|je|par|amount per)\s*100\s*(g|ml|9)\b"#, options: .regularExpression) != nil }
        guard !per100, let serving = lines.first(where: { $0.contains("serving") || $0.contains("portion") }) else { return }
        table.perServing = true
        if let range = serving.range(of: #"\d+(?:[.,]\d+)?\s*(?=g\b)"#, options: .regularExpression) {
            table.servingGrams = Double(serving[range].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
        }
    }

    /// Where the name `name` ends in `line`, as a whole word (or words).
    private static func find(_ name: String, in line: String) -> String.Index? {
        line.range(of: #"(?<![\p{L}])"# + NSRegularExpression.escapedPattern(for: name) + #"(?![\p{L}])"#,
                   options: .regularExpression)?.upperBound
    }

    /// The grams the first number after `start` says (mg divided), or nil when there is none or
    /// it is more than 100 g; whether a unit was read with it, and whether it may have been cut
    /// short (a whole number, no unit, nothing after it on the line). A number with more decimals than tables print (`decimals`: one, two for salt; EU
    /// Regulation 1169/2011's rounding guidance) that ends in 9 and has no unit is a gram sign
    /// read as a 9 ("13.29" for "13.2g").
    private static func grams(after start: String.Index, in line: String, decimals: Int)
        -> (value: Double, hasUnit: Bool, cutShort: Bool)? {
        guard let found = firstNumber(after: start, in: line) else { return nil }
        var value = found.value
        var hasUnit = found.unit != nil
        if found.unit == nil, found.decimals > decimals, found.text.hasSuffix("9") {
            value = Double(found.text.dropLast().replacingOccurrences(of: ",", with: ".")) ?? value
            hasUnit = true
        }
        if found.unit == "mg" { value /= 1000 }
        return value <= 100 ? (value, hasUnit, !hasUnit && found.decimals == 0 && found.endsLine) : nil
    }

    /// The first number after `start`: its value, its digits as printed, decimals, its unit, and
    /// whether nothing follows it on the line.
    private static func firstNumber(after start: String.Index, in line: String)
        -> (value: Double, text: String, decimals: Int, unit: String?, endsLine: Bool)? {
        let rest = String(line[start...])
        guard let match = rest.range(of: #"\d+(?:[.,]\d+)?"#, options: .regularExpression) else { return nil }
        let text = String(rest[match])
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")) else { return nil }
        let decimals = text.firstIndex { $0 == "." || $0 == "," }.map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        let after = rest[match.upperBound...].drop { $0 == " " }
        let unit: String? = after.hasPrefix("mg") ? "mg" : after.hasPrefix("g") ? "g" : nil
        return (value, text, decimals, unit, after.allSatisfy(\.isWhitespace))
    }

    /// The number just before the unit `pattern` in `line`; thousands may be set apart by a space
    /// ("1 650 kJ").
    private static func number(before pattern: String, in line: String) -> Double? {
        let number = #"(?<![\d.,])(?:\d{1,3}(?:[ \u00A0\u202F]\d{3})+|\d+)(?:[.,]\d+)?"#
        guard let range = line.range(of: number + "(?=" + pattern + ")", options: .regularExpression) else { return nil }
        let digits = line[range].filter { !$0.isWhitespace }
        return Double(digits.replacingOccurrences(of: ",", with: "."))
    }
}
