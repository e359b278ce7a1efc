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
            let ids = (try context.form(MergeSelectedForm.self).capture ?? []).compactMap { Forms.given($0) }
            guard ids.count >= 2 else { throw WebError.badRequest("tick two captures or more to merge them.") }
            return try await redirect(after: correct(.merge(target: ids[0], others: Array(ids.dropFirst())), context))
        }
        router.post("/captures/:id/merge") { _, context in
            let others = try field(context.form(MergeForm.self).with, "with").split { $0 == " " || $0 == "," }.map(String.init)
            return try await redirect(after: correct(.merge(target: context.parameters.require("id"), others: others), context))
        }
        router.post("/captures/:id/split") { _, context in
            let photo = try field(context.form(SplitForm.self).photo, "photo")
            return try await redirect(after: correct(.split(capture: context.parameters.require("id"), photo: photo), context))
        }
        router.post("/captures/:id/move") { _, context in
            let form = try context.form(MoveForm.self)
            let asked = CorrectionAsked.move(from: try context.parameters.require("id"), photo: try field(form.photo, "photo"),
                                             to: try field(form.to, "to"))
            return try await redirect(after: correct(asked, context))
        }
        router.post("/captures/:id/barcode") { _, context in
            let form = try context.form(BarcodeForm.self)
            let code = Forms.given(form.none) == nil ? try field(form.code, "code") : nil
            return try await redirect(after: correct(.barcode(capture: context.parameters.require("id"), code: code), context))
        }
        router.post("/captures/:id/delete") { _, context in
            try await redirect(after: correct(.delete(capture: context.parameters.require("id")), context))
        }
        router.post("/captures/:id/product") { _, context in
            let id = try context.parameters.require("id")
            let form = try context.form(ProductForm.self)
            let capture = try await enterProduct(capture: id, name: field(form.name, "name"), brand: Forms.given(form.brand))
            return Response.redirect(to: "/captures/\(capture)")
        }
        router.post("/edits/:id/undo") { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw WebError.notFound("no such edit.") }
            return try await redirect(after: undo(id, context))
        }
    }

    /// A form field the correction needs, trimmed; a 400 naming it when it is missing or empty.
    private func field(_ value: String?, _ name: String) throws -> String {
        guard let value = Forms.given(value) else { throw WebError.badRequest("the form has no \(name).") }
        return value
    }

    /// The captures ticked on a grid (`capture[]`, as many as ticked).
    struct MergeSelectedForm: Decodable { var capture: [String]? }
    /// The ids typed to merge into the capture, separated by spaces or commas.
    struct MergeForm: Decodable { var with: String? }
    struct SplitForm: Decodable { var photo: String? }
    struct MoveForm: Decodable { var photo: String?; var to: String? }
    /// `none` (any value) removes the barcode; else `code` is set.
    struct BarcodeForm: Decodable { var code: String?; var none: String? }
    struct ProductForm: Decodable { var name: String?; var brand: String? }

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
