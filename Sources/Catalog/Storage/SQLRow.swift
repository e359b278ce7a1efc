/// One row of a query's result, read by column position while the query runs: a row is valid only
/// inside the callback that receives it (it reads straight from the database's own buffers).
protocol SQLRow {
    /// The number of columns.
    var count: Int { get }
    /// The name of column `index`, as the query's result names it.
    func name(at index: Int) -> String
    func isNull(at index: Int) -> Bool
    /// The column as text, integer or double; nil for NULL.
    func text(at index: Int) -> String?
    func integer(at index: Int) -> Int64?
    func real(at index: Int) -> Double?
    /// The column as the database stores it: integer, double, text or NULL.
    func value(at index: Int) -> SQLValue
}

extension SQLRow {
    /// Column `index` as a `Value`. A NULL, or a value that is not a `Value`, stops the program:
    /// the schema rules both out (`NOT NULL`, typed columns), as GRDB's row subscripts assume.
    subscript<Value: SQLValueConvertible>(index: Int) -> Value {
        guard let value = Value.read(from: self, at: index) else {
            preconditionFailure("column \(index) (\(name(at: index))) holds \(isNull(at: index) ? "NULL" : "another type"), not \(Value.self)")
        }
        return value
    }

    /// Column `index` as a `Value`, nil for NULL.
    subscript<Value: SQLValueConvertible>(index: Int) -> Value? {
        isNull(at: index) ? nil : self[index] as Value
    }
}
