import Foundation
import GRDB

/// A catalogue record whose columns are its Codable keys in snake_case, named once by the keys.
///
/// Encoding uses GRDB's `convertToSnakeCase` (`capturedUTC` → `captured_utc`); decoding uses
/// `ColumnNaming` because GRDB's `convertFromSnakeCase` would turn `captured_utc` into `capturedUtc`.
protocol SnakeCaseRecord: FetchableRecord, EncodableRecord {}

extension SnakeCaseRecord {
    /// Properties map to snake_case columns.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
    /// Snake_case columns map back to properties, `utc` included.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { ColumnNaming.decodingStrategy }
}

extension Capture: SnakeCaseRecord, PersistableRecord {
    /// The `capture` table.
    public static let databaseTableName = "capture"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let id = Column("id")
        static let setName = Column("set_name")
        static let barcode = Column("barcode")
        static let gtin13 = Column("gtin13")
        static let capturedUTC = Column("captured_utc")
        static let rating = Column("rating")
        static let agentId = Column("agent_id")
        static let contextPath = Column("context_path")
    }
}

extension Agent: SnakeCaseRecord, PersistableRecord {
    /// The `agent` table.
    public static let databaseTableName = "agent"
}

extension Photo: SnakeCaseRecord, PersistableRecord {
    /// The `photo` table.
    public static let databaseTableName = "photo"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let captureId = Column("capture_id")
        static let position = Column("position")
        static let sha256 = Column("sha256")
    }
}

extension BarcodeHit: SnakeCaseRecord, MutablePersistableRecord {
    /// The `barcode_hit` table.
    public static let databaseTableName = "barcode_hit"

    /// The columns the catalogue's queries filter and sort on.
    enum QueryColumns {
        static let id = Column("id")
        static let photoId = Column("photo_id")
    }

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Run: SnakeCaseRecord, MutablePersistableRecord {
    /// The `run` table.
    public static let databaseTableName = "run"

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

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
