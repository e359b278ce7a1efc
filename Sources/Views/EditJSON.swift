package import Catalog

/// An edit in the web API's answers (`/api/edits`, and every correction's answer).
package struct EditJSON: Encodable, Sendable {
    package var id: Int64
    /// `merge`, `split`, `move`, `set-barcode`, `delete` or `undo`.
    package var kind: String
    package var madeAt: String
    package var origin: String
    package var summary: String
    /// The captures it touched, as they were, and the ids of those it left.
    package var before: [String]
    package var after: [String]
    @NullWhenAbsent package var undoes: Int64?
    @NullWhenAbsent package var undoneBy: Int64?
    @NullWhenAbsent package var purgedAt: String?

    package init(_ edit: Edit) {
        id = edit.id
        kind = edit.kind.rawValue
        madeAt = edit.madeAt
        origin = edit.origin
        summary = edit.summary
        before = edit.before.map(\.capture.id)
        after = edit.after.map(\.capture.id)
        undoes = edit.undoes
        undoneBy = edit.undoneBy
        purgedAt = edit.purgedAt
    }
}

/// One page of the web API's capture list: the captures (the keys of `list --json`) and where the
/// next page starts (`?before=` takes it), null on the last page.
package struct CaptureListJSON: Encodable, Sendable {
    package var captures: [CaptureJSON]
    @NullWhenAbsent package var next: String?

    package init(_ page: CataloguePage) {
        captures = page.cards.map {
            CaptureJSON($0.capture, agents: page.agents, product: $0.product, hits: $0.hits, packageText: $0.packageText)
        }
        next = page.next.map(CatalogueQuery.text)
    }
}
