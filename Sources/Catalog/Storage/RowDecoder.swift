/// Where each property of a record is in a query's rows: its column's position, by property name
/// (`captured_utc` → `capturedUTC`, `ColumnNaming`). Worked out once per query, from its first row.
struct RowColumns {
    private let indexes: [String: Int]

    /// The columns of `row` in `range` (all of them by default): a joined row holds several records.
    init(_ row: some SQLRow, range: Range<Int>? = nil) {
        var indexes: [String: Int] = [:]
        for index in (range ?? 0 ..< row.count).reversed() {
            indexes[ColumnNaming.propertyName(forColumn: row.name(at: index))] = index
        }
        self.indexes = indexes
    }

    func index(of property: String) -> Int? { indexes[property] }
}

/// Decodes a `Decodable` record from one row: each property from the column named after it.
struct RowDecoder: Decoder {
    let row: any SQLRow
    let columns: RowColumns

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(row: row, columns: columns))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a row decodes as a keyed record"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "a row decodes as a keyed record"))
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: any SQLRow
        let columns: RowColumns

        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { columns.index(of: key.stringValue) != nil }

        private func index(_ key: Key) throws -> Int {
            guard let index = columns.index(of: key.stringValue) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "no column for \(key.stringValue)"))
            }
            return index
        }

        func decodeNil(forKey key: Key) throws -> Bool { row.isNull(at: try index(key)) }

        private func value<Value: SQLValueConvertible>(_ type: Value.Type, _ key: Key) throws -> Value {
            let index = try index(key)
            guard !row.isNull(at: index) else {
                throw DecodingError.valueNotFound(type, .init(codingPath: [key], debugDescription: "NULL in \(row.name(at: index))"))
            }
            guard let value = Value.read(from: row, at: index) else {
                throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "\(row.name(at: index)) holds \(row.value(at: index))"))
            }
            return value
        }

        private func optional<Value: SQLValueConvertible>(_ type: Value.Type, _ key: Key) throws -> Value? {
            guard let index = columns.index(of: key.stringValue), !row.isNull(at: index) else { return nil }
            return try value(type, key)
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

        /// The vocabulary's enums; any other type is not a column.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let convertible = type as? any SQLValueConvertible.Type else {
                throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "\(type) is not stored as a column"))
            }
            return try value(convertible, key) as! T
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = columns.index(of: key.stringValue), !row.isNull(at: index) else { return nil }
            return try decode(type, forKey: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "columns do not nest"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "columns do not nest"))
        }

        func superDecoder() throws -> any Decoder {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "records have no superclass"))
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }
    }
}
