internal import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq: the only file that calls libpq. Statements are
/// prepared once per connection, by their SQL (`?` numbered `$1, $2, …`); values travel as text
/// and rows come back one at a time (single-row mode), so a query of millions of rows is read in
/// constant memory. Used by one thread at a time: `PostgresStore` lends it out.
// @unchecked: libpq's connection is used by one thread at a time; the store's pool hands it to one caller.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    private let connection: OpaquePointer
    /// Prepared statements' names, by their SQL as the catalogue wrote it.
    private var prepared: [String: String] = [:]
    /// The statement used last: a bulk write runs one many times (see `SQLiteConnection`).
    private var last: (sql: String, name: String)?
    /// Whether the connection broke (the server went away); a broken connection is dropped.
    private(set) var isBroken = false
    var dialect: SQLDialect { .postgres }

    /// Connects to the database `url` names. Throws `SQLError` (`.cannotOpen`) with libpq's reason.
    init(url: String) throws {
        guard let connection = PQconnectdb(url) else { throw SQLError(kind: .cannotOpen, message: "libpq is out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw SQLError(kind: .cannotOpen, message: message)
        }
        self.connection = connection
        // libpq prints the server's notices on standard error unless told otherwise.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        PQsetClientEncoding(connection, "UTF8")
    }

    deinit { PQfinish(connection) }

    /// What libpq finds wrong with `url`, or nil when it can parse it.
    static func problem(ofURL url: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &message) else {
            defer { if let message { PQfreemem(message) } }
            return message.map { text($0) } ?? "not a PostgreSQL connection URL"
        }
        PQconninfoFree(options)
        return nil
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let name = try statement(sql)
        let result = Self.withParameters(arguments) { count, values in
            PQexecPrepared(connection, name, count, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql)
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    func query(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) throws {
        let name = try statement(sql)
        let sent = Self.withParameters(arguments) { count, values in
            PQsendQueryPrepared(connection, name, count, values, nil, nil, 0)
        }
        guard sent == 1 else { throw failure(nil, sql) }
        PQsetSingleRowMode(connection)
        var failed: (any Error)?
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            guard failed == nil else { continue }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                do {
                    try body(PostgresRow(result: result))
                } catch {
                    failed = error
                    cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK: break
            default: failed = failure(result, sql)
            }
        }
        if let failed { throw failed }
    }

    func executeScript(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// The name of `sql`'s prepared statement, preparing it on first use.
    private func statement(_ sql: String) throws -> String {
        if let last, last.sql == sql { return last.name }
        if let name = prepared[sql] {
            last = (sql, name)
            return name
        }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(connection, name, Self.numbered(sql), 0, nil)
        defer { PQclear(result) }
        try check(result, sql)
        prepared[sql] = name
        last = (sql, name)
        return name
    }

    /// Asks the server to stop the running query; its results are then drained.
    private func cancel() {
        guard let handle = PQgetCancel(connection) else { return }
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(handle, &message, Int32(message.count))
        PQfreeCancel(handle)
    }

    /// Throws unless `result` says the statement succeeded.
    private func check(_ result: OpaquePointer?, _ sql: String) throws {
        guard let result else { throw failure(nil, sql) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql) }
    }

    /// The error of a failed statement: the server's SQLSTATE and message, or libpq's own.
    private func failure(_ result: OpaquePointer?, _ sql: String) -> SQLError {
        let broken = PQstatus(connection) != CONNECTION_OK
        if broken { isBroken = true }
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return Self.text(value)
        }
        guard let state = field("C") else {
            return SQLError(kind: broken ? .connectionLost : .other, message: Self.text(PQerrorMessage(connection)))
        }
        let message = [field("M"), field("D")].compactMap { $0 }.joined(separator: " ")
        return SQLError(sqlState: state, message: message, table: field("t"), detail: field("D"))
    }

    /// Calls `body` with the values as libpq's array of C strings (NULL for `.null`).
    private static func withParameters<T>(_ values: [SQLValue],
                                          _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        var bytes: [CChar] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(values.count)
        for value in values {
            guard let text = value.postgresText else {
                offsets.append(nil)
                continue
            }
            offsets.append(bytes.count)
            bytes.append(contentsOf: text.utf8CString)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            let pointers = offsets.map { offset in offset.map { UnsafePointer(buffer.baseAddress! + $0) } }
            return pointers.withUnsafeBufferPointer { body(Int32(values.count), $0.baseAddress) }
        }
    }

    /// A C string from libpq as text, without a trailing line break.
    static func text(_ pointer: UnsafePointer<CChar>) -> String {
        String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func text(_ pointer: UnsafeMutablePointer<CChar>) -> String {
        text(UnsafePointer(pointer))
    }
}

/// One row of a result in single-row mode, read in place as text (libpq's text format).
struct PostgresRow: SQLRow {
    let result: OpaquePointer

    var count: Int { Int(PQnfields(result)) }
    func name(at index: Int) -> String { String(cString: PQfname(result, Int32(index))) }
    func isNull(at index: Int) -> Bool { PQgetisnull(result, 0, Int32(index)) == 1 }

    func text(at index: Int) -> String? {
        isNull(at: index) ? nil : String(cString: PQgetvalue(result, 0, Int32(index)))
    }

    func integer(at index: Int) -> Int64? {
        guard !isNull(at: index), let value = PQgetvalue(result, 0, Int32(index)) else { return nil }
        if PQftype(result, Int32(index)) == PostgresType.boolean { return value.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        var end: UnsafeMutablePointer<CChar>?
        let number = strtoll(value, &end, 10)
        return end?.pointee == 0 && end != value ? number : nil
    }

    func real(at index: Int) -> Double? {
        guard !isNull(at: index), let value = PQgetvalue(result, 0, Int32(index)) else { return nil }
        var end: UnsafeMutablePointer<CChar>?
        let number = strtod(value, &end)
        return end?.pointee == 0 && end != value ? number : nil
    }

    func value(at index: Int) -> SQLValue {
        guard !isNull(at: index) else { return .null }
        switch PQftype(result, Int32(index)) {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.boolean:
            return integer(at: index).map(SQLValue.integer) ?? .null
        case PostgresType.float8, PostgresType.float4, PostgresType.numeric:
            return real(at: index).map(SQLValue.real) ?? .null
        default:
            return text(at: index).map(SQLValue.text) ?? .null
        }
    }
}

/// The type OIDs of PostgreSQL's built-in types that are not text (`pg_type.oid`, fixed since 7.x).
private enum PostgresType {
    static let boolean: Oid = 16
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let numeric: Oid = 1700
}
