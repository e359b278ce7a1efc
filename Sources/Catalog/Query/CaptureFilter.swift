import Foundation
import GRDB

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

    /// The captures this filter matches, newest first (ties: the greater id first), starting after
    /// `before` when given. Each filter has an index in this order (migration `v3-scale`).
    func request(_ db: Database, before: CaptureCursor? = nil) throws -> QueryInterfaceRequest<Capture> {
        typealias Columns = Capture.QueryColumns
        var request = Capture.all()
        if let barcode {
            request = request.filter(Columns.barcode == barcode || Columns.gtin13 == barcode)
        }
        if let setName {
            request = request.filter(Columns.setName == setName)
        }
        if let since {
            request = request.filter(Columns.capturedUTC >= since)
        }
        if let until {
            request = request.filter(Columns.capturedUTC < until)
        }
        if noBarcode {
            request = request.filter(Columns.barcode == nil)
        }
        if let rating {
            request = request.filter(Columns.rating == rating)
        }
        if let agent {
            let ids = try Self.agentIds(matching: agent, db)
            // One id as an equality, so that its index gives the order too.
            request = request.filter(ids.count == 1 ? Columns.agentId == ids.first : ids.contains(Columns.agentId))
        }
        if let search {
            request = request.filter(sql: Self.searchSQL, arguments: StatementArguments(Array(repeating: Catalogue.fold(search), count: 5)))
        }
        if let before {
            request = request.filter(sql: "(captured_utc, id) < (?, ?)", arguments: [before.capturedUTC, before.id])
        }
        return request.order(Columns.capturedUTC.desc, Columns.id.desc)
    }

    /// Folded text found in the capture's set name, code, or its product's name or brands. Reads
    /// captures in the page's order, so a page of frequent matches stops early.
    private static let searchSQL = """
        (instr(ingest_fold(set_name), ?) OR instr(ifnull(barcode, ''), ?) OR instr(ifnull(gtin13, ''), ?)
         OR EXISTS (SELECT 1 FROM product WHERE product.gtin14 = '0' || capture.gtin13
                    AND (instr(ingest_fold(product.name), ?) OR instr(ingest_fold(product.brands), ?))))
        """

    /// The ids of the agents `text` names. Names are compared in Swift, not with SQL's `LIKE`, whose
    /// case folding stops at ASCII; agents and their names are few (`agent_name` keeps each name
    /// captures were taken under once), so reading them is cheap.
    private static func agentIds(matching text: String, _ db: Database) throws -> Set<String> {
        let names = try Row.fetchAll(db, sql: "SELECT id, name FROM agent UNION SELECT agent_id, name FROM agent_name")
        var ids: Set<String> = [text]
        for row in names {
            let name: String = row["name"]
            if name.range(of: text, options: .caseInsensitive) != nil { ids.insert(row["id"]) }
        }
        return ids
    }
}
