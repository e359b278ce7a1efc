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
