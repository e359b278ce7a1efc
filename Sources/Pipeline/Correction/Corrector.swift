package import Catalog
package import Foundation
package import Logging

/// Carries corrections out: each one transaction of the catalogue, recorded as an edit that can be
/// undone. Only rows change — the library keeps its files where they are (a deleted capture's
/// files stay, held by the edit until `ingest purge`) — so a correction never waits for the
/// library's lock and runs beside `ingest watch`; a crash leaves the catalogue as it was before or
/// as it is after, never between.
package struct Corrector: Sendable {
    private let catalogue: Catalogue
    private let logger: Logger
    /// Who asks, as edits record it: `cli`, or `web` and the client's address.
    private let origin: String
    /// The id a split gives its new capture.
    private let newCaptureId: @Sendable () -> String

    package init(catalogue: Catalogue, logger: Logger, origin: String,
                newCaptureId: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.catalogue = catalogue
        self.logger = logger
        self.origin = origin
        self.newCaptureId = newCaptureId
    }

    /// Makes `correction` and returns its edit. Throws `CorrectionError` when it does not fit the
    /// captures, `EditError` when one is gone, `CatalogError` when the catalogue cannot be written.
    package func apply(_ correction: Correction) throws -> Edit {
        let edit = try catalogue.applyEdit(to: correction.captureIds, origin: origin, madeAt: Self.now()) { found in
            try correction.plan(found, newCaptureId: newCaptureId)
        }
        logger.notice("capture corrected", metadata: ["edit": "\(edit.id)", "kind": "\(edit.kind.rawValue)",
                                                      "summary": "\(edit.summary)", "origin": "\(origin)"])
        return edit
    }

    /// Undoes edit `id`, or the latest that stands, and returns the undo (an edit of its own).
    package func undo(_ id: Int64?) throws -> Edit {
        let undo = try catalogue.undoEdit(id: id, origin: origin, madeAt: Self.now())
        logger.notice("edit undone", metadata: ["edit": "\(undo.undoes ?? 0)", "undo": "\(undo.id)", "origin": "\(origin)"])
        return undo
    }

    /// The time now, as edits record it (ISO 8601 UTC).
    package static func now(_ date: Date = Date()) -> String {
        CaptureTime(recording: date, fraction: true).iso8601
    }
}
