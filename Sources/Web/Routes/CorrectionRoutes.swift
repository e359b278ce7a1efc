import Catalog
import Hummingbird

/// The forms of the pages: each correction, then back to a page that reports it with its undo.
struct CorrectionRoutes {
    let corrections: Corrections

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.post("/captures/merge") { _, context in
            let ids = (try context.form(MergeSelectedForm.self).capture ?? []).compactMap { Forms.given($0) }
            guard ids.count >= 2 else { throw HTTPError.badRequest("tick two captures or more to merge them.") }
            return try await redirect(after: corrections.correct(.merge(target: ids[0], others: Array(ids.dropFirst())), context))
        }
        let capture = routes.group("/captures/:id")
        capture.post("merge") { _, context in
            let others = try field(context.form(MergeForm.self).with, "with").split { $0 == " " || $0 == "," }.map(String.init)
            return try await correct(.merge(target: context.parameters.require("id"), others: others), context)
        }
        capture.post("split") { _, context in
            let photo = try field(context.form(SplitForm.self).photo, "photo")
            return try await correct(.split(capture: context.parameters.require("id"), photo: photo), context)
        }
        capture.post("move") { _, context in
            let form = try context.form(MoveForm.self)
            return try await correct(.move(from: context.parameters.require("id"), photo: field(form.photo, "photo"),
                                           to: field(form.to, "to")), context)
        }
        capture.post("barcode") { _, context in
            let form = try context.form(BarcodeForm.self)
            let code = Forms.given(form.none) == nil ? try field(form.code, "code") : nil
            return try await correct(.barcode(capture: context.parameters.require("id"), code: code), context)
        }
        capture.post("delete") { _, context in
            try await correct(.delete(capture: context.parameters.require("id")), context)
        }
        capture.post("product") { _, context in
            let form = try context.form(ProductForm.self)
            let id = try await corrections.enterProduct(capture: context.parameters.require("id"), name: field(form.name, "name"),
                                                        brand: Forms.given(form.brand))
            return Response.redirect(to: "/captures/\(id)")
        }
        routes.post("/edits/:id/undo") { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw HTTPError.notFound("no such edit.") }
            return try await redirect(after: corrections.undo(id, context))
        }
        return routes
    }

    private func correct(_ asked: CorrectionAsked, _ context: WebContext) async throws -> Response {
        try await redirect(after: corrections.correct(asked, context))
    }

    /// A form field the correction needs, trimmed; a 400 naming it when it is missing or empty.
    private func field(_ value: String?, _ name: String) throws -> String {
        guard let value = Forms.given(value) else { throw HTTPError.badRequest("the form has no \(name).") }
        return value
    }

    /// Back to where the edit can be seen: the capture it left (the first), else the catalogue.
    private func redirect(after edit: Edit) -> Response {
        if let capture = edit.after.first?.capture.id {
            return .redirect(to: "/captures/\(capture)?edit=\(edit.id)#notice")
        }
        return .redirect(to: "/?edit=\(edit.id)#notice")
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
}
