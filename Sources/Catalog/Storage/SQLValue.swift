import Vocabulary

/// A value bound to a statement or read from a row: the four kinds both SQLite and PostgreSQL
/// store for the catalogue (text, 64-bit integers, doubles, NULL).
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A Swift type stored as one column: how it becomes a `SQLValue` and how it is read back.
protocol SQLValueConvertible {
    var sqlValue: SQLValue { get }
    /// The value of the non-NULL column `index` of `row`; nil when the column does not hold one.
    static func read(from row: some SQLRow, at index: Int) -> Self?
}

extension String: SQLValueConvertible {
    var sqlValue: SQLValue { .text(self) }
    static func read(from row: some SQLRow, at index: Int) -> String? { row.text(at: index) }
}

extension Int64: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(self) }
    static func read(from row: some SQLRow, at index: Int) -> Int64? { row.integer(at: index) }
}

extension Int: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    static func read(from row: some SQLRow, at index: Int) -> Int? { row.integer(at: index).map(Int.init) }
}

extension Double: SQLValueConvertible {
    var sqlValue: SQLValue { .real(self) }
    static func read(from row: some SQLRow, at index: Int) -> Double? { row.real(at: index) }
}

extension Bool: SQLValueConvertible {
    /// Stored as 1 or 0, which SQLite's columns and PostgreSQL's boolean parameters both take.
    var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    static func read(from row: some SQLRow, at index: Int) -> Bool? { row.integer(at: index).map { $0 != 0 } }
}

extension Optional where Wrapped: SQLValueConvertible {
    /// NULL for nil.
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// The vocabulary is stored as its raw text, so records and query arguments use the enums themselves.
protocol SQLTextEnum: SQLValueConvertible, RawRepresentable where RawValue == String {}

extension SQLTextEnum {
    var sqlValue: SQLValue { .text(rawValue) }
    static func read(from row: some SQLRow, at index: Int) -> Self? { row.text(at: index).flatMap(Self.init(rawValue:)) }
}

extension Symbology: SQLTextEnum {}
extension Rating: SQLTextEnum {}
extension TimeSource: SQLTextEnum {}
extension ImageFormat: SQLTextEnum {}
extension ProductSource: SQLTextEnum {}
