package import Catalog

/// A correction a person asks for: the grouping or the barcode was wrong. What each one does to the
/// captures is decided by `plan(_:newCaptureId:)` from values alone; `Corrector` carries it out.
package enum Correction: Hashable, Sendable {
    /// Joins `others` into `target`: one capture, its photos in time order, `target`'s id and
    /// context. Refused when the captures carry different barcodes.
    case merge(target: String, others: [String])
    /// Cuts `capture` before photo `photo`: that photo and those after it become a new capture.
    case split(capture: String, atPhoto: String)
    /// Takes photo `photo` from capture `from` into capture `to` (in time order); `from` is removed
    /// when it had no other photo. Barcodes stay as they are.
    case move(photo: String, from: String, to: String)
    /// Sets the capture's barcode (a GTIN typed by hand, its check digit checked), or removes it.
    case setBarcode(capture: String, code: ManualBarcode?)
    /// Takes the capture, its photos and hits out of the catalogue; the files stay, held for an undo.
    case delete(capture: String)

    /// The captures the correction reads and changes, in the order `plan` expects them.
    package var captureIds: [String] {
        switch self {
        case let .merge(target, others): [target] + others
        case let .split(capture, _): [capture]
        case let .move(_, from, to): [from, to]
        case let .setBarcode(capture, _): [capture]
        case let .delete(capture): [capture]
        }
    }

    /// The kind of edit it is recorded as.
    package var kind: EditKind {
        switch self {
        case .merge: .merge
        case .split: .split
        case .move: .move
        case .setBarcode: .setBarcode
        case .delete: .delete
        }
    }
}
