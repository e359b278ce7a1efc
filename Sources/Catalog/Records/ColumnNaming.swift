import GRDB

/// How snake_case column names turn back into the records' property names.
enum ColumnNaming {
    /// Words the records spell in capitals (`capturedUTC`, `takenUTC`).
    static let acronyms: Set<String> = ["utc"]

    /// The decoding strategy every record uses.
    static let decodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
        PropertyKey(propertyName(forColumn: column))
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

    /// A coding key made from a computed property name.
    struct PropertyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ stringValue: String) {
            self.stringValue = stringValue
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}
