/// A `CaptureFilter` as SQL: where its captures come from, its conditions and their arguments, and
/// the page order. The captures are `capture`; a search reads them through its text's table, in that
/// table's order, so that its index gives the page.
struct CaptureSQL {
    /// `FROM …`, naming the captures `capture`; a query may join more tables after it.
    var from = "FROM capture"
    var conditions: [String] = []
    var arguments: [SQLValue] = []
    /// The columns the page is ordered by, newest first: the capture time, then the greater id.
    var order = (time: "capture.captured_utc", id: "capture.id")

    /// `WHERE …`, empty when every capture matches.
    var whereClause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }

    /// `ORDER BY …`, newest first.
    var orderBy: String { "ORDER BY \(order.time) DESC, \(order.id) DESC" }

    /// The source, conditions and order: what follows `SELECT …` (and any joins after `from`).
    var body: String { "\(from) \(whereClause) \(orderBy)" }

    mutating func add(_ condition: String, _ values: SQLValue...) { add(condition, values) }

    mutating func add(_ condition: String, _ values: [SQLValue]) {
        conditions.append(condition)
        arguments += values
    }
}
