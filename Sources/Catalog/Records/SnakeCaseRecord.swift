import GRDB

/// A catalogue record whose columns are its Codable keys in snake_case, named once by the keys.
///
/// Both directions use `ColumnNaming`: GRDB's `convertFromSnakeCase` would turn `captured_utc` into
/// `capturedUtc`, and its `convertToSnakeCase` redoes its work for every column of every row.
protocol SnakeCaseRecord: FetchableRecord, EncodableRecord {}

extension SnakeCaseRecord {
    /// Properties map to snake_case columns.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { ColumnNaming.encodingStrategy }
    /// Snake_case columns map back to properties, `utc` included.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { ColumnNaming.decodingStrategy }
}
