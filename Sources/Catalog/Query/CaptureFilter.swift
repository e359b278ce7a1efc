import Foundation

/// Which captures `Catalogue.captures(matching:)` returns; the default matches all of them.
///
/// Conditions combine with AND. Times are seconds since 1970 compared with `Capture.capturedUTC`,
/// as the half-open range `since ..< until`.
public struct CaptureFilter: Hashable, Sendable {
    /// Matches captures whose `barcode` or `gtin13` equals this text exactly.
    public var barcode: String?
    /// Matches captures of this set (inbox sub-folder) only.
    public var setName: String?
    /// Matches captures taken at or after this time.
    public var since: Double?
    /// Matches captures taken before this time.
    public var until: Double?
    /// Matches captures without a barcode only.
    public var noBarcode: Bool
    /// Matches captures with this rating only.
    public var rating: Rating?
    /// Matches captures of the agent with this id, or whose name — the latest or the one at capture
    /// time — contains this text, ignoring case.
    public var agent: String?
    /// Matches captures whose product name or brand, set name or barcode contains this text,
    /// ignoring case and accents.
    public var search: String?

    /// A filter with the given conditions; leave out a condition to not filter on it.
    public init(barcode: String? = nil, setName: String? = nil, since: Double? = nil, until: Double? = nil,
                noBarcode: Bool = false, rating: Rating? = nil, agent: String? = nil,
                search: String? = nil) {
        self.barcode = barcode
        self.setName = setName
        self.since = since
        self.until = until
        self.noBarcode = noBarcode
        self.rating = rating
        self.agent = agent
        self.search = search
    }

    /// The filter as SQL: `WHERE …` over `capture` (empty when it matches everything), with its
    /// arguments, for captures newest first (ties: the greater id first) starting after `before`.
    /// Each filter has an index in this order (migration `v3-scale`): `orderBy` keeps to it.
    func sql(_ db: any SQLConnection, before: CaptureCursor? = nil) throws -> (where: String, arguments: [SQLValue]) {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        func add(_ condition: String, _ values: SQLValue...) {
            conditions.append(condition)
            arguments += values
        }
        if let barcode {
            add("(capture.barcode = ? OR capture.gtin13 = ?)", barcode.sqlValue, barcode.sqlValue)
        }
        if let setName { add("capture.set_name = ?", setName.sqlValue) }
        if let since { add("capture.captured_utc >= ?", since.sqlValue) }
        if let until { add("capture.captured_utc < ?", until.sqlValue) }
        if noBarcode { add("capture.barcode IS NULL") }
        if let rating { add("capture.rating = ?", rating.sqlValue) }
        if let agent {
            let ids = try Self.agentIds(matching: agent, db).sorted()
            // One id as an equality, so that its index gives the order too.
            conditions.append(ids.count == 1 ? "capture.agent_id = ?" : "capture.agent_id IN (\(placeholders(ids.count)))")
            arguments += ids.map(\.sqlValue)
        }
        if let search {
            conditions.append(Self.searchSQL(db.dialect))
            arguments += Array(repeating: Catalogue.fold(search).sqlValue, count: 5)
        }
        if let before {
            add("(capture.captured_utc, capture.id) < (?, ?)", before.capturedUTC.sqlValue, before.id.sqlValue)
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// The order of `list`: newest first, then the greater id.
    static let orderBy = "ORDER BY capture.captured_utc DESC, capture.id DESC"

    /// Folded text found in the capture's set name, code, or its product's name or brands. Reads
    /// captures in the page's order, so a page of frequent matches stops early.
    private static func searchSQL(_ dialect: SQLDialect) -> String {
        func found(in text: String) -> String { dialect.position(of: "?", in: text) + " > 0" }
        return """
            (\(found(in: "ingest_fold(capture.set_name)")) OR \(found(in: "coalesce(capture.barcode, '')"))
             OR \(found(in: "coalesce(capture.gtin13, '')"))
             OR EXISTS (SELECT 1 FROM product WHERE product.gtin14 = '0' || capture.gtin13
                        AND (\(found(in: "ingest_fold(product.name)")) OR \(found(in: "ingest_fold(product.brands)")))))
            """
    }

    /// The ids of the agents `text` names. Names are compared in Swift, not with SQL's `LIKE`, whose
    /// case folding stops at ASCII; agents and their names are few (`agent_name` keeps each name
    /// captures were taken under once), so reading them is cheap.
    private static func agentIds(matching text: String, _ db: any SQLConnection) throws -> Set<String> {
        var ids: Set<String> = [text]
        try db.query("SELECT id, name FROM agent UNION SELECT agent_id, name FROM agent_name", []) { row in
            let name: String = row[1]
            if name.range(of: text, options: .caseInsensitive) != nil { ids.insert(row[0]) }
        }
        return ids
    }
}
