import Catalog
import Foundation
import Hummingbird
import Pipeline
import Views
import Vocabulary

/// A correction as a request asks for it: ids as given (whole, or a prefix a person typed).
enum CorrectionAsked: Sendable {
    case merge(target: String, others: [String])
    case split(capture: String, photo: String)
    case move(from: String, photo: String, to: String)
    case barcode(capture: String, code: String?)
    case delete(capture: String)
}

extension WebServer {
    /// The forms of the pages: each correction, then back to a page that reports it with its undo.
    func addCorrections(to router: Router<WebContext>) {
        router.post("/captures/merge") { _, context in
            let ids = context.form?.values("capture") ?? []
            guard ids.count >= 2 else { throw WebError.badRequest("tick two captures or more to merge them.") }
            return try await redirect(after: correct(.merge(target: ids[0], others: Array(ids.dropFirst())), context))
        }
        router.post("/captures/:id/merge") { _, context in
            let others = (try field("with", context)).split { $0 == " " || $0 == "," }.map(String.init)
            return try await redirect(after: correct(.merge(target: context.parameters.require("id"), others: others), context))
        }
        router.post("/captures/:id/split") { _, context in
            try await redirect(after: correct(.split(capture: context.parameters.require("id"), photo: field("photo", context)), context))
        }
        router.post("/captures/:id/move") { _, context in
            let asked = CorrectionAsked.move(from: try context.parameters.require("id"), photo: try field("photo", context),
                                             to: try field("to", context))
            return try await redirect(after: correct(asked, context))
        }
        router.post("/captures/:id/barcode") { _, context in
            let code = context.form?.value("none") == nil ? try field("code", context) : nil
            return try await redirect(after: correct(.barcode(capture: context.parameters.require("id"), code: code), context))
        }
        router.post("/captures/:id/delete") { _, context in
            try await redirect(after: correct(.delete(capture: context.parameters.require("id")), context))
        }
        router.post("/captures/:id/product") { _, context in
            let id = try context.parameters.require("id")
            let capture = try await enterProduct(capture: id, name: field("name", context), brand: context.form?.value("brand"))
            return Response.redirect(to: "/captures/\(capture)")
        }
        router.post("/edits/:id/undo") { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw WebError.notFound("no such edit.") }
            return try await redirect(after: undo(id, context))
        }
    }

    /// A form field the correction needs; a 400 naming it when it is missing.
    private func field(_ name: String, _ context: WebContext) throws -> String {
        guard let value = context.form?.value(name) else { throw WebError.badRequest("the form has no \(name).") }
        return value
    }

    /// Back to where the edit can be seen: the capture it left (the first), else the catalogue.
    private func redirect(after edit: Edit) -> Response {
        if let capture = edit.after.first?.capture.id {
            return .redirect(to: "/captures/\(capture)?edit=\(edit.id)#notice")
        }
        return .redirect(to: "/?edit=\(edit.id)#notice")
    }

    /// Resolves the ids of `asked` and makes the correction, as one edit. Throws `EditError` for an
    /// id that names nothing, `CorrectionError` for a correction that does not fit.
    func correct(_ asked: CorrectionAsked, _ context: WebContext) async throws -> Edit {
        let corrector = Corrector(catalogue: catalogue, logger: logger, origin: "web \(context.remoteAddress)")
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
        let corrector = Corrector(catalogue: catalogue, logger: logger, origin: "web \(context.remoteAddress)")
        return try await blocking { try corrector.undo(id) }
    }

    /// Stores the product of the capture's barcode as typed (the code of `ingest products set`);
    /// returns the capture's id.
    func enterProduct(capture id: String, name: String, brand: String?) async throws -> String {
        try await blocking { [catalogue] in
            let resolved = try Self.capture(id, catalogue)
            guard let gtin13 = try catalogue.capture(id: resolved)?.gtin13 else {
                throw WebError.conflict("the capture has no retail barcode (GTIN) to keep product data under; set its barcode first.")
            }
            _ = try ProductEntry(code: gtin13, name: name, brand: brand).store(in: catalogue)
            return resolved
        }
    }

    /// The id of the one capture `text` (an id or a prefix of 4 characters or more) names.
    static func capture(_ text: String, _ catalogue: Catalogue) throws -> String {
        do {
            guard let found = try catalogue.capture(idPrefix: text) else { throw EditError.unknownCapture(text) }
            return found.id
        } catch let error as CatalogError {
            guard case .ambiguousId = error else { throw error }
            throw WebError.conflict(error.description)
        }
    }

    /// The one photo `text` (an id or a prefix) names.
    static func photo(_ text: String, _ catalogue: Catalogue) throws -> Photo {
        guard let found = try catalogue.photo(idPrefix: text) else { throw EditError.unknownPhoto(text) }
        return found
    }
}
