import Catalog
import Foundation
import Hummingbird
import Views
import NIOFoundationEssentialsCompat

/// The JSON API under `/api`: captures with the keys of `list --json` and `show --json`,
/// corrections as POSTs under the capture, edits and their undo, the session's CSRF token.
struct APIRoutes {
    let catalogue: Catalogue
    let corrections: Corrections
    let readOnly: Bool

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.get("/captures") { request, _ in
            let parameters = try Forms.query(CatalogueParameters.self, request)
            let limit = try Self.limit(Forms.given(parameters.limit))
            let query = parameters.query
            if let problem = query.problems.first { throw HTTPError.badRequest(problem) }
            let page = try await blocking { [catalogue] in try CataloguePage.load(query, from: catalogue, size: limit) }
            return Responses.json(CaptureListJSON(page))
        }
        let capture = routes.group("/captures/:id")
        capture.get { _, context in
            Responses.json(try await captureJSON([context.parameters.require("id")])[0])
        }
        capture.post("merge") { _, context in
            let body = try decode(MergeBody.self, context)
            return try await answer(.merge(target: context.parameters.require("id"), others: body.with), context)
        }
        capture.post("split") { _, context in
            let body = try decode(SplitBody.self, context)
            return try await answer(.split(capture: context.parameters.require("id"), photo: body.at), context)
        }
        capture.post("move") { _, context in
            let body = try decode(MoveBody.self, context)
            return try await answer(.move(from: context.parameters.require("id"), photo: body.photo, to: body.to), context)
        }
        capture.post("barcode") { _, context in
            let body = try decode(BarcodeBody.self, context)
            return try await answer(.barcode(capture: context.parameters.require("id"), code: body.code), context)
        }
        capture.post("delete") { _, context in
            try await answer(.delete(capture: context.parameters.require("id")), context)
        }
        capture.post("product") { _, context in
            let body = try decode(ProductBody.self, context)
            let id = try await corrections.enterProduct(capture: context.parameters.require("id"), name: body.name, brand: body.brand)
            return Responses.json(try await captureJSON([id])[0])
        }
        routes.get("/edits") { request, _ in
            let before = try Forms.number(Forms.query(EditsParameters.self, request).before, "before")
            let page = try await blocking { [catalogue] in try EditsPage.load(before: before, from: catalogue) }
            return Responses.json(EditListJSON(edits: page.edits.map(EditJSON.init), next: page.next))
        }
        routes.post("/edits/undo") { _, context in
            try await answer(corrections.undo(nil, context))
        }
        routes.post("/edits/:id/undo") { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw HTTPError.notFound("no such edit.") }
            return try await answer(corrections.undo(id, context))
        }
        routes.get("/session") { _, context in
            Responses.json(SessionJSON(csrfToken: context.access.csrfToken, readOnly: readOnly))
        }
        return routes
    }

    /// `?limit=`: 1…1000, the page's size by default.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return CataloguePage.pageSize }
        guard let limit = Int(text), (1 ... 1000).contains(limit) else {
            throw HTTPError.badRequest("limit must be a number from 1 to 1000, got '\(text)'.")
        }
        return limit
    }

    /// The request's JSON body as `type`; a 400 saying what is wrong with it.
    private func decode<T: Decodable>(_ type: T.Type, _ context: WebContext) throws -> T {
        try Forms.json(type, context.body, what: "the correction's fields")
    }

    /// A correction's answer: the edit, and the captures it left as `show --json` prints them.
    private func answer(_ asked: CorrectionAsked, _ context: WebContext) async throws -> Response {
        try await answer(corrections.correct(asked, context))
    }

    private func answer(_ edit: Edit) async throws -> Response {
        let captures = try await captureJSON(edit.after.map(\.capture.id))
        return Responses.json(CorrectionJSON(edit: EditJSON(edit), captures: captures))
    }

    /// Captures as `show --json` prints them; a 404 for an id that names none.
    private func captureJSON(_ ids: [String]) async throws -> [CaptureJSON] {
        try await blocking { [catalogue] in
            try ids.map { id in
                guard let page = try CapturePage.load(id: try Corrections.capture(id, catalogue), from: catalogue) else {
                    throw EditError.unknownCapture(id)
                }
                return page.json
            }
        }
    }

    struct MergeBody: Decodable { var with: [String] }
    struct SplitBody: Decodable { var at: String }
    struct MoveBody: Decodable { var photo: String; var to: String }
    struct BarcodeBody: Decodable { var code: String? }
    struct ProductBody: Decodable { var name: String; var brand: String? }

    struct CorrectionJSON: Encodable {
        var edit: EditJSON
        var captures: [CaptureJSON]
    }

    struct EditListJSON: Encodable {
        var edits: [EditJSON]
        @NullWhenAbsent var next: Int64?
    }

    struct SessionJSON: Encodable {
        @NullWhenAbsent var csrfToken: String?
        var readOnly: Bool
    }
}
