import Foundation
import Vocabulary

/// Which captures `Catalogue.captures(matching:)` returns; the default matches all of them.
///
/// Conditions combine with AND. Times are seconds since 1970 compared with `Capture.capturedUTC`,
/// as the half-open range `since ..< until`.
package struct CaptureFilter: Hashable, Sendable {
    /// Matches captures whose `barcode` or `gtin13` equals this text exactly.
    package var barcode: String?
    /// Matches captures of this set (inbox sub-folder) only.
    package var setName: String?
    /// Matches captures taken at or after this time.
    package var since: Double?
    /// Matches captures taken before this time.
    package var until: Double?
    /// Matches captures without a barcode only.
    package var noBarcode: Bool
    /// Matches captures with this rating only.
    package var rating: Rating?
    /// Matches captures of the agent with this id, or whose name — the latest or the one at capture
    /// time — contains this text, ignoring case.
    package var agent: String?
    /// Matches captures whose product name or brand, set name or barcode contains this text,
    /// ignoring case and accents.
    package var search: String?

    /// A filter with the given conditions; leave out a condition to not filter on it.
    package init(barcode: String? = nil, setName: String? = nil, since: Double? = nil, until: Double? = nil,
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

    /// The filter as SQL over `capture`, newest first (ties: the greater id first), starting after
    /// `before`. Each filter has an index in this order (migration `v3-scale`): `order` keeps to it.
    func sql(_ db: any SQLConnection, before: CaptureCursor? = nil) throws -> CaptureSQL {
        var query = CaptureSQL()
        if let barcode {
            query.add("(capture.barcode = ? OR capture.gtin13 = ?)", barcode.sqlValue, barcode.sqlValue)
        }
        if let setName { query.add("capture.set_name = ?", setName.sqlValue) }
        if let since { query.add("capture.captured_utc >= ?", since.sqlValue) }
        if let until { query.add("capture.captured_utc < ?", until.sqlValue) }
        if noBarcode { query.add("capture.barcode IS NULL") }
        if let rating { query.add("capture.rating = ?", rating.sqlValue) }
        if let agent {
            let ids = try Self.agentIds(matching: agent, db).sorted()
            // One id as an equality, so that its index gives the order too.
            query.add(ids.count == 1 ? "capture.agent_id = ?" : "capture.agent_id IN (\(placeholders(ids.count)))",
                      ids.map(\.sqlValue))
        }
        if let search { try Self.addSearch(Self.searchTerm(search), to: &query, db) }
        if let before {
            query.add("(\(query.order.time), \(query.order.id)) < (?, ?)", before.capturedUTC.sqlValue, before.id.sqlValue)
        }
        return query
    }

    /// `text` as search compares it: folded, without U+001F, which separates the parts of a
    /// capture's searched text (`SearchSchema`).
    static func searchTerm(_ text: String) -> String {
        Catalogue.fold(text).replacingOccurrences(of: "\u{1F}", with: "")
    }

    /// The most captures a term may match for them to be looked up by id from the trigram index;
    /// a term that matches more is found by reading the captures' text newest first, which a
    /// page of frequent matches ends soon.
    static let fewMatches = 1000

    /// Captures whose searched text (`capture_text`) contains `term`. A term the trigram index
    /// finds in at most `fewMatches` captures becomes those captures' ids: they are read by id and
    /// sorted, whatever the catalogue's size. Otherwise the captures' text is read in page order
    /// (its index holds the text on SQLite) until the page is full.
    private static func addSearch(_ term: String, to query: inout CaptureSQL, _ db: any SQLConnection) throws {
        guard !term.isEmpty else { return }
        if let ids = try indexedMatches(term, db) {
            query.add(ids.isEmpty ? "1 = 0" : "capture.id IN (\(placeholders(ids.count)))", ids.map(\.sqlValue))
            return
        }
        query.from = "FROM capture_text AS search JOIN capture ON capture.id = search.capture_id"
        query.order = (time: "search.captured_utc", id: "search.capture_id")
        query.add(db.dialect.position(of: "?", in: "search.text") + " > 0", term.sqlValue)
    }

    /// The ids of the captures whose text contains `term`, from SQLite's trigram index; nil when
    /// there are more than `fewMatches`, when the term is too short to have a trigram, or on
    /// PostgreSQL, which has no such index.
    private static func indexedMatches(_ term: String, _ db: any SQLConnection) throws -> [String]? {
        guard db.dialect == .sqlite, term.unicodeScalars.count >= 3 else { return nil }
        // A quoted FTS5 string: the term's trigrams in a row, that is the term as a substring.
        let phrase = "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        var ids: [String] = []
        try db.query("""
            SELECT capture_text.capture_id FROM capture_text_index JOIN capture_text ON capture_text.id = capture_text_index.rowid
            WHERE capture_text_index MATCH ? LIMIT ?
            """, [phrase.sqlValue, (fewMatches + 1).sqlValue]) { ids.append($0[0]) }
        return ids.count > fewMatches ? nil : ids
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
