import Catalog

/// An edit in the web API's answers (`/api/edits`, and every correction's answer).
public struct EditJSON: Encodable, Sendable {
    public var id: Int64
    /// `merge`, `split`, `move`, `set-barcode`, `delete` or `undo`.
    public var kind: String
    public var madeAt: String
    public var origin: String
    public var summary: String
    /// The captures it touched, as they were, and the ids of those it left.
    public var before: [String]
    public var after: [String]
    @NullWhenAbsent public var undoes: Int64?
    @NullWhenAbsent public var undoneBy: Int64?
    @NullWhenAbsent public var purgedAt: String?

    public init(_ edit: Edit) {
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
public struct CaptureListJSON: Encodable, Sendable {
    public var captures: [CaptureJSON]
    @NullWhenAbsent public var next: String?

    public init(_ page: CataloguePage) {
        captures = page.cards.map { CaptureJSON($0.capture, agents: page.agents, product: $0.product) }
        next = page.next.map(CatalogueQuery.text)
    }
}
