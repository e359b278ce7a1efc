import Views

/// The query of the catalogue (`/`, `/api/captures`): its filters and place as `CatalogueQuery`
/// reads them, the page's size (API), the edit to report (page).
struct CatalogueParameters: Decodable {
    var agent, since, until, barcode, nobarcode, rating, set, q, before: String?
    var limit, edit: String?

    var query: CatalogueQuery {
        let pairs: [(String, String?)] = [("agent", agent), ("since", since), ("until", until), ("barcode", barcode),
                                          ("nobarcode", nobarcode), ("rating", rating), ("set", set), ("q", q), ("before", before)]
        return CatalogueQuery(parameters: pairs.compactMap { name, value in value.map { (name, $0) } })
    }
}

/// The query of the edits (`/edits`, `/api/edits`): the page after edit `before`, the edit to report.
struct EditsParameters: Decodable {
    var before, edit: String?
}
