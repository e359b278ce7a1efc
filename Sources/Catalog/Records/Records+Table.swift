// Each record is one row of its table: its stored properties are the columns, named by
// `ColumnNaming` (`capturedUTC` → `captured_utc`).

extension Capture: TableRecord {
    static let databaseTableName = "capture"
}

extension Agent: TableRecord {
    static let databaseTableName = "agent"
}

extension Photo: TableRecord {
    static let databaseTableName = "photo"
}

extension BarcodeHit: TableRecord {
    static let databaseTableName = "barcode_hit"
    static var generatedProperty: String? { "id" }
}

extension Run: TableRecord {
    static let databaseTableName = "run"
    static var generatedProperty: String? { "id" }
}

extension Product: TableRecord {
    static let databaseTableName = "product"
}

extension Worker: TableRecord {
    static let databaseTableName = "worker"
}

extension SetClaim: TableRecord {
    static let databaseTableName = "set_claim"
}
