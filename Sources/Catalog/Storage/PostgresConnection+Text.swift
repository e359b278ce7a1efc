// What travels between the catalogue and PostgreSQL as text: statements, parameters, errors.

extension PostgresConnection {
    /// `sql` with its `?` placeholders numbered `$1, $2, …` as PostgreSQL wants them; a `?` inside a
    /// quoted string or name stays as it is.
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension SQLValue {
    /// The value as PostgreSQL's text input reads it; nil for NULL. Doubles in the shortest form
    /// that reads back to the same value.
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let integer): String(integer)
        case .text(let text): text
        case .real(let real):
            if real.isNaN { "NaN" } else if real.isInfinite { real < 0 ? "-Infinity" : "Infinity" } else { "\(real)" }
        }
    }
}

extension SQLError {
    /// The kind of a PostgreSQL error, from its SQLSTATE: `23505` a unique index (with the column
    /// from the detail, `Key (sha256)=(…)`, as `table.column`), class `08` and `57P0x` a lost
    /// connection, `53xxx` and `58030` storage.
    init(sqlState: String, message: String, table: String?, detail: String?) {
        let kind: Kind = switch sqlState {
        case "23505": .unique(column: Self.uniqueColumn(table: table, detail: detail))
        case "23514", "23502": .check
        case "23503": .foreignKey
        case "58030": .storage
        case "40001", "40P01": .conflict
        case "57P01", "57P02", "57P03": .connectionLost
        case "3D000", "28000", "28P01": .cannotOpen
        default:
            if sqlState.hasPrefix("08") { .connectionLost } else if sqlState.hasPrefix("53") { .storage } else { .other }
        }
        self.init(kind: kind, message: message)
    }

    /// `photo.sha256` from the table and a detail `Key (sha256)=(…) already exists.`
    private static func uniqueColumn(table: String?, detail: String?) -> String? {
        guard let table, let detail, let open = detail.range(of: "Key ("),
              let close = detail[open.upperBound...].range(of: ")=") else { return nil }
        return "\(table).\(detail[open.upperBound ..< close.lowerBound])"
    }
}
