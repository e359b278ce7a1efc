import Catalog
import Hummingbird
import Logging
import Pipeline

/// A correction as a request asks for it: ids as given (whole, or a prefix a person typed).
enum CorrectionAsked: Sendable {
    case merge(target: String, others: [String])
    case split(capture: String, photo: String)
    case move(from: String, photo: String, to: String)
    case barcode(capture: String, code: String?)
    case delete(capture: String)
}

/// What the correction forms and the API's POSTs do, written once: ids resolved, the correction
/// made as one edit (`Corrector`, the code of `ingest merge` and its siblings), an edit undone, a
/// product typed by hand stored.
struct Corrections: Sendable {
    let catalogue: Catalogue
    let logger: Logger

    /// Resolves the ids of `asked` and makes the correction, as one edit recorded as coming from
    /// `context`'s client. Throws `EditError` for an id that names nothing, `CorrectionError` for a
    /// correction that does not fit.
    func correct(_ asked: CorrectionAsked, _ context: WebContext) async throws -> Edit {
        let corrector = corrector(context)
        return try await blocking { [catalogue] in
            let correction: Correction = switch asked {
            case let .merge(target, others):
                .merge(target: try Self.capture(target, catalogue), others: try others.map { try Self.capture($0, catalogue) })
            case let .split(capture, photo):
                .split(capture: try Self.capture(capture, catalogue), atPhoto: try Self.photo(photo, catalogue).id)
            case let .move(from, photo, to):
                .move(photo: try Self.photo(photo, catalogue).id, from: try Self.capture(from, catalogue),
                      to: try Self.capture(to, catalogue))
            case let .barcode(capture, code):
                .setBarcode(capture: try Self.capture(capture, catalogue), code: try code.map { try ManualBarcode(parsing: $0) })
            case let .delete(capture):
                .delete(capture: try Self.capture(capture, catalogue))
            }
            return try corrector.apply(correction)
        }
    }

    /// Undoes edit `id` (the latest that stands, for nil).
    func undo(_ id: Int64?, _ context: WebContext) async throws -> Edit {
        let corrector = corrector(context)
        return try await blocking { try corrector.undo(id) }
    }

    /// Stores the product of the capture's barcode as typed (the code of `ingest products set`);
    /// returns the capture's id.
    func enterProduct(capture id: String, name: String, brand: String?) async throws -> String {
        try await blocking { [catalogue] in
            let resolved = try Self.capture(id, catalogue)
            guard let gtin13 = try catalogue.capture(id: resolved)?.gtin13 else {
                throw HTTPError.conflict("the capture has no retail barcode (GTIN) to keep product data under; set its barcode first.")
            }
            _ = try ProductEntry(code: gtin13, name: name, brand: brand).store(in: catalogue)
            return resolved
        }
    }

    private func corrector(_ context: WebContext) -> Corrector {
        Corrector(catalogue: catalogue, logger: logger, origin: "web \(context.remoteAddress)")
    }

    /// The id of the one capture `text` (an id or a prefix of 4 characters or more) names.
    static func capture(_ text: String, _ catalogue: Catalogue) throws -> String {
        do {
            guard let found = try catalogue.capture(idPrefix: text) else { throw EditError.unknownCapture(text) }
            return found.id
        } catch let error as CatalogError {
            guard case .ambiguousId = error else { throw error }
            throw HTTPError.conflict(error.description)
        }
    }

    /// The one photo `text` (an id or a prefix) names.
    static func photo(_ text: String, _ catalogue: Catalogue) throws -> Photo {
        guard let found = try catalogue.photo(idPrefix: text) else { throw EditError.unknownPhoto(text) }
        return found
    }
}
