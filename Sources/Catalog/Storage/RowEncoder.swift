import Synchronization

/// A record stored as one row of `databaseTableName`: every stored property a column, named by
/// `ColumnNaming` (`capturedUTC` → `captured_utc`), in declaration order.
protocol TableRecord: Codable {
    static var databaseTableName: String { get }
    /// The property whose column the database numbers (`id`), left out of inserts; nil for none.
    static var generatedProperty: String? { get }
}

extension TableRecord {
    static var generatedProperty: String? { nil }

    /// `INSERT INTO table (columns…) VALUES (?, …)`, worked out once per table.
    static func insertSQL(columns: () -> [String]) -> String {
        insertStatements.withLock { statements in
            if let sql = statements[databaseTableName] { return sql }
            let names = columns()
            let sql = "INSERT INTO \(databaseTableName) (\(names.joined(separator: ", "))) VALUES (\(placeholders(names.count)))"
            statements[databaseTableName] = sql
            return sql
        }
    }
}

/// The insert statement of each table, by table name.
private let insertStatements = Mutex<[String: String]>([:])

/// Encodes an `Encodable` record as the values of its columns, in its properties' order; nil is NULL.
struct RowEncoder: Encoder {
    /// The record's column values, and (computed only when asked) its column names.
    static func encode(_ record: some Encodable, omitting omitted: String? = nil) throws
        -> (values: [SQLValue], columns: () -> [String]) {
        let storage = Storage(omitting: omitted)
        try record.encode(to: RowEncoder(storage: storage))
        return (storage.values, { storage.keys.map(ColumnNaming.columnName(forProperty:)) })
    }

    final class Storage {
        var values: [SQLValue] = []
        var keys: [String] = []
        let omitted: String?

        init(omitting omitted: String?) {
            self.omitted = omitted
            values.reserveCapacity(32)
            keys.reserveCapacity(32)
        }
    }

    let storage: Storage
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("a record encodes as keyed columns")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("a record encodes as keyed columns")
    }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] { [] }

        private func append(_ value: SQLValue, _ key: Key) {
            if let omitted = storage.omitted, key.stringValue == omitted { return }
            storage.values.append(value)
            storage.keys.append(key.stringValue)
        }

        mutating func encodeNil(forKey key: Key) throws { append(.null, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { append(.text(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { append(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { append(.integer(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { append(.real(value), key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { append(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { append(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { append(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { append(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { append(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { append(value.sqlValue, key) }

        /// The vocabulary's enums; any other type is not a column.
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let convertible = value as? any SQLValueConvertible else {
                throw EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "\(T.self) is not stored as a column"))
            }
            append(convertible.sqlValue, key)
        }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return append(.null, key) }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("columns do not nest")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("columns do not nest")
        }

        mutating func superEncoder() -> any Encoder { preconditionFailure("records have no superclass") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("records have no superclass") }
    }
}
