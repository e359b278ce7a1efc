/// What a correction did; stored by its raw value in `edit.kind`.
package enum EditKind: String, CaseIterable, Codable, Sendable {
    /// Captures joined into the first one.
    case merge
    /// A capture cut in two before one of its photos.
    case split
    /// One photo taken from its capture into another.
    case move
    /// A capture's barcode set by hand, or removed.
    case setBarcode = "set-barcode"
    /// A capture taken out of the catalogue, its files kept until `ingest purge`.
    case delete
    /// An earlier edit reverted; undoing an undo makes the edit again.
    case undo
}
