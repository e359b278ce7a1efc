/// How the records' property names map to snake_case column names and back.
enum ColumnNaming {
    /// Words the records spell in capitals (`capturedUTC`, `takenUTC`).
    static let acronyms: Set<String> = ["utc"]

    /// `capturedUTC` → `captured_utc`, `thumbPath` → `thumb_path`, `sha256` → `sha256`: a word starts
    /// at a capital that follows a small letter or digit, or that precedes a small letter.
    static func columnName(forProperty property: String) -> String {
        let characters = Array(property)
        var name = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    name.append("_")
                }
            }
            name.append(contentsOf: character.lowercased())
        }
        return name
    }

    /// `captured_utc` → `capturedUTC`, `thumb_path` → `thumbPath`, `sha256` → `sha256`.
    static func propertyName(forColumn column: String) -> String {
        let words = column.split(separator: "_").map(String.init)
        guard let first = words.first else { return column }
        let rest = words.dropFirst().map { word in
            acronyms.contains(word) ? word.uppercased() : word.prefix(1).uppercased() + word.dropFirst()
        }
        return ([first] + rest).joined()
    }
}
