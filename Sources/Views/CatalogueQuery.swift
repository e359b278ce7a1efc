package import Catalog
import Foundation
import Vocabulary

/// The catalogue page's filters and place, as its URL's query carries them (`?rating=Poor&before=…`):
/// read from the query, turned into a `CaptureFilter`, and written back into links.
///
/// Parameters: `agent`, `since` and `until` (a day or an ISO 8601 time, as `list` takes them),
/// `barcode`, `nobarcode=1`, `rating`, `set`, `q` (free text), `before` (a cursor: the page after
/// that place). Empty values are no filter. A value that cannot be read is kept in `problems`.
package struct CatalogueQuery: Hashable, Sendable {
    package var agent = ""
    package var since = ""
    package var until = ""
    package var barcode = ""
    package var noBarcode = false
    package var rating = ""
    package var setName = ""
    package var search = ""
    package var before: CaptureCursor?
    /// What could not be read, one sentence each.
    package private(set) var problems: [String] = []

    package init() {}

    /// Reads the parameters (name, value pairs, percent-decoded); unknown names are ignored.
    package init(parameters: [(String, String)]) {
        for (name, value) in parameters {
            let value = value.trimmingCharacters(in: .whitespaces)
            switch name {
            case "agent": agent = value
            case "since": since = value
            case "until": until = value
            case "barcode": barcode = value
            case "nobarcode": noBarcode = value == "1" || value == "on" || value == "true"
            case "rating": rating = value
            case "set": setName = value
            case "q": search = value
            case "before" where !value.isEmpty:
                before = Self.cursor(value)
                if before == nil { problems.append("before: not a place in the catalogue: '\(value)'.") }
            default: break
            }
        }
        if !since.isEmpty, TimeBound(parsing: since) == nil { problems.append("since: not a day or time: '\(since)'.") }
        if !until.isEmpty, TimeBound(parsing: until) == nil { problems.append("until: not a day or time: '\(until)'.") }
        if !rating.isEmpty, Self.rating(rating) == nil { problems.append("rating: not Excellent, Good, Fair or Poor: '\(rating)'.") }
    }

    /// The captures the filters match (filters that could not be read are left out).
    package var filter: CaptureFilter {
        func given(_ text: String) -> String? { text.isEmpty ? nil : text }
        return CaptureFilter(barcode: noBarcode ? nil : given(barcode), setName: given(setName),
                             since: TimeBound(parsing: since)?.seconds, until: TimeBound(parsing: until)?.untilSeconds,
                             noBarcode: noBarcode, rating: Self.rating(rating), agent: given(agent), search: given(search))
    }

    /// Whether any filter is set.
    package var isFiltered: Bool { filter != CaptureFilter() }

    /// The query string of these filters, starting after `before` when given (no leading `?`).
    package func queryString(before cursor: CaptureCursor? = nil) -> String {
        var items: [(String, String)] = []
        for (name, value) in [("agent", agent), ("since", since), ("until", until), ("barcode", barcode),
                              ("rating", rating), ("set", setName), ("q", search)] where !value.isEmpty {
            items.append((name, value))
        }
        if noBarcode { items.append(("nobarcode", "1")) }
        if let cursor { items.append(("before", Self.text(cursor))) }
        return items.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// A cursor as text: its time, `~`, its capture id.
    package static func text(_ cursor: CaptureCursor) -> String {
        "\(cursor.capturedUTC)~\(cursor.id)"
    }

    /// The cursor `text(_:)` wrote; nil for anything else.
    package static func cursor(_ text: String) -> CaptureCursor? {
        let parts = text.split(separator: "~", maxSplits: 1)
        guard parts.count == 2, let seconds = Double(parts[0]), seconds.isFinite, !parts[1].isEmpty,
              parts[1].count <= 64 else { return nil }
        return CaptureCursor(capturedUTC: seconds, id: String(parts[1]))
    }

    /// A rating in any case; nil for anything else.
    static func rating(_ text: String) -> Rating? {
        Rating.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
    }

    /// `text` safe as a query value: everything but unreserved characters percent-encoded.
    package static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
