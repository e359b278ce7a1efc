/// One connection to the catalogue's database, lent for the length of one read or write of its
/// `CatalogueStore`. Every query of the catalogue is written against this, once, with `?`
/// placeholders; each connection keeps the statements it prepared, by their SQL.
protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs one statement, binding `arguments` to its placeholders in order; returns the number of
    /// rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Runs a query, calling `body` with each row as the database yields it, in constant memory.
    /// `body` may not use the connection while the query runs.
    func query(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) throws

    /// Runs statements separated by semicolons, without arguments: a migration's DDL.
    func executeScript(_ sql: String) throws
}

extension SQLConnection {
    @discardableResult
    func execute(_ sql: String) throws -> Int {
        try execute(sql, [])
    }

    /// Every row of the query, decoded as `Record` by its column names.
    func fetchAll<Record: Decodable>(_ type: Record.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> [Record] {
        var records: [Record] = []
        try forEach(type, sql, arguments) { records.append($0) }
        return records
    }

    /// The first row of the query, decoded as `Record`; nil when there is none.
    func fetchOne<Record: Decodable>(_ type: Record.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> Record? {
        try fetchAll(type, sql, arguments).first
    }

    /// Calls `body` with each row of the query decoded as `Record`, as the database yields it.
    func forEach<Record: Decodable>(_ type: Record.Type, _ sql: String, _ arguments: [SQLValue] = [],
                                    _ body: (Record) throws -> Void) throws {
        var columns: RowColumns?
        try query(sql, arguments) { row in
            let names = columns ?? RowColumns(row)
            columns = names
            try body(Record(from: RowDecoder(row: row, columns: names)))
        }
    }

    /// The first column of every row.
    func column<Value: SQLValueConvertible>(_ type: Value.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> [Value] {
        var values: [Value] = []
        try query(sql, arguments) { row in values.append(row[0]) }
        return values
    }

    /// The first column of the first row; nil when there is no row or it holds NULL.
    func scalar<Value: SQLValueConvertible>(_ type: Value.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> Value? {
        var value: Value?
        try query(sql, arguments) { row in if value == nil { value = row[0] as Value? } }
        return value
    }

    /// Inserts `record` into its table, every stored property a column.
    func insert<Record: TableRecord>(_ record: Record) throws {
        let encoded = try RowEncoder.encode(record, omitting: Record.generatedProperty)
        try execute(Record.insertSQL(columns: encoded.columns), encoded.values)
    }
}

extension SQLConnection {
    /// Inserts `record` with every property a column, its generated id too (a row brought back by
    /// an undo keeps the id it had).
    func insertKeepingId<Record: TableRecord>(_ record: Record) throws {
        let encoded = try RowEncoder.encode(record)
        let columns = encoded.columns()
        try execute("INSERT INTO \(Record.databaseTableName) (\(columns.joined(separator: ", "))) "
            + "VALUES (\(placeholders(columns.count)))", encoded.values)
    }

    /// Inserts `record`, or updates every other column of the row with the same `key`.
    func upsert<Record: TableRecord>(_ record: Record, key: String) throws {
        let encoded = try RowEncoder.encode(record, omitting: Record.generatedProperty)
        let columns = encoded.columns()
        let updates = columns.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try execute(Record.insertSQL(columns: { columns }) + " ON CONFLICT (\(key)) DO UPDATE SET \(updates)", encoded.values)
    }
}

/// The placeholders of an `IN (…)` list of `count` values: `?, ?, ?`.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
