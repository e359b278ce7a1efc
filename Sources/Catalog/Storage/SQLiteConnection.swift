import GRDB

/// One GRDB connection, lent for a read or a write: statements are prepared once per connection
/// (GRDB's statement cache) and values bound straight to them, without boxing each in
/// `StatementArguments` (which took most of a product import's time).
final class SQLiteConnection: SQLConnection {
    private let db: Database
    /// The statement used last, by its SQL: a bulk write runs one statement many times, and GRDB's
    /// cache would hash the whole SQL text each time (an identical string compares at once).
    private var last: (sql: String, statement: Statement)?
    var dialect: SQLDialect { .sqlite }

    init(_ db: Database) {
        self.db = db
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try SQLiteStore.mapping {
            let statement = try prepared(sql, arguments)
            try statement.execute()
            return db.changesCount
        }
    }

    func query(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) throws {
        try SQLiteStore.mapping {
            let rows = try Row.fetchCursor(try prepared(sql, arguments))
            while let row = try rows.next() { try body(SQLiteRow(row: row)) }
        }
    }

    func executeScript(_ sql: String) throws {
        try SQLiteStore.mapping { try db.execute(sql: sql) }
    }

    /// The cached statement of `sql`, reset, with `arguments` bound.
    private func prepared(_ sql: String, _ arguments: [SQLValue]) throws -> Statement {
        let statement: Statement
        if let last, last.sql == sql {
            statement = last.statement
        } else {
            statement = try db.cachedStatement(sql: sql)
            last = (sql, statement)
        }
        // Resets the statement and clears its bindings: NULL wherever nothing is bound.
        statement.setUncheckedArguments(StatementArguments())
        for (offset, value) in arguments.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt = switch value {
            case .null: 0
            case .integer(let integer): integer.bind(to: statement.sqliteStatement, at: index)
            case .real(let real): real.bind(to: statement.sqliteStatement, at: index)
            case .text(let text): text.bind(to: statement.sqliteStatement, at: index)
            }
            guard code == 0 else {
                throw SQLError(kind: .other, message: "binding argument \(index) of \(sql) failed with SQLite code \(code)")
            }
        }
        return statement
    }
}

/// A row of a GRDB cursor, read in place.
struct SQLiteRow: SQLRow {
    let row: Row

    var count: Int { row.count }
    func name(at index: Int) -> String { Array(row.columnNames)[index] }
    func isNull(at index: Int) -> Bool { row.hasNull(atIndex: index) }
    func text(at index: Int) -> String? { row.hasNull(atIndex: index) ? nil : row[index] as String }
    func integer(at index: Int) -> Int64? { row.hasNull(atIndex: index) ? nil : row[index] as Int64 }
    func real(at index: Int) -> Double? { row.hasNull(atIndex: index) ? nil : row[index] as Double }

    func value(at index: Int) -> SQLValue {
        switch (row[index] as DatabaseValue).storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
        }
    }
}
