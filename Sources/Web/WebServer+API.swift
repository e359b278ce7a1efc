import Catalog
import Foundation
import Hummingbird
import Views

extension WebServer {
    /// The JSON API: captures with the keys of `list --json` and `show --json`, corrections as
    /// POSTs under the capture, edits and their undo.
    func addAPI(to router: Router<WebContext>) {
        router.get("/api/captures") { request, _ in
            let parameters = try Self.query(CatalogueParameters.self, request)
            let limit = try Self.limit(Forms.given(parameters.limit))
            let query = parameters.query
            if let problem = query.problems.first { throw WebError.badRequest(problem) }
            let page = try await blocking { [catalogue] in try CataloguePage.load(query, from: catalogue, size: limit) }
            return Responses.json(CaptureListJSON(page))
        }
        router.get("/api/captures/:id") { _, context in
            let id = try context.parameters.require("id")
            return Responses.json(try await captureJSON([id])[0])
        }
        router.post("/api/captures/:id/merge") { _, context in
            let body = try decode(MergeBody.self, context)
            return try await answer(correct(.merge(target: context.parameters.require("id"), others: body.with), context))
        }
        router.post("/api/captures/:id/split") { _, context in
            let body = try decode(SplitBody.self, context)
            return try await answer(correct(.split(capture: context.parameters.require("id"), photo: body.at), context))
        }
        router.post("/api/captures/:id/move") { _, context in
            let body = try decode(MoveBody.self, context)
            return try await answer(correct(.move(from: context.parameters.require("id"), photo: body.photo, to: body.to), context))
        }
        router.post("/api/captures/:id/barcode") { _, context in
            let body = try decode(BarcodeBody.self, context)
            return try await answer(correct(.barcode(capture: context.parameters.require("id"), code: body.code), context))
        }
        router.post("/api/captures/:id/delete") { _, context in
            try await answer(correct(.delete(capture: context.parameters.require("id")), context))
        }
        router.post("/api/captures/:id/product") { _, context in
            let body = try decode(ProductBody.self, context)
            let id = try await enterProduct(capture: context.parameters.require("id"), name: body.name, brand: body.brand)
            return Responses.json(try await captureJSON([id])[0])
        }
        router.get("/api/edits") { request, _ in
            let before = try Forms.number(Self.query(EditsParameters.self, request).before, "before")
            let page = try await blocking { [catalogue] in try EditsPage.load(before: before, from: catalogue) }
            return Responses.json(EditListJSON(edits: page.edits.map(EditJSON.init), next: page.next))
        }
        router.post("/api/edits/undo") { _, context in
            try await answer(undo(nil, context))
        }
        router.post("/api/edits/:id/undo") { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw WebError.notFound("no such edit.") }
            return try await answer(undo(id, context))
        }
        router.get("/api/session") { _, context in
            Responses.json(SessionJSON(csrfToken: context.access.csrfToken, readOnly: settings.readOnly))
        }
    }

    /// `?limit=`: 1…1000, the page's size by default.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return CataloguePage.pageSize }
        guard let limit = Int(text), (1 ... 1000).contains(limit) else {
            throw WebError.badRequest("limit must be a number from 1 to 1000, got '\(text)'.")
        }
        return limit
    }

    /// The request's JSON body as `type`; a 400 saying what is wrong with it.
    private func decode<T: Decodable>(_ type: T.Type, _ context: WebContext) throws -> T {
        guard let body = context.body, body.readableBytes > 0 else {
            throw WebError.badRequest("send the correction's fields as a JSON object (Content-Type: application/json).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw WebError.badRequest("the JSON body does not fit: \(Self.describe(error)).")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case .dataCorrupted: "it is not JSON"
        @unknown default: "it cannot be read"
        }
    }

    /// A correction's answer: the edit, and the captures it left as `show --json` prints them.
    private func answer(_ edit: Edit) async throws -> Response {
        let captures = try await captureJSON(edit.after.map(\.capture.id))
        return Responses.json(CorrectionJSON(edit: EditJSON(edit), captures: captures))
    }

    /// Captures as `show --json` prints them; a 404 for an id that names none.
    private func captureJSON(_ ids: [String]) async throws -> [CaptureJSON] {
        try await blocking { [catalogue] in
            try ids.map { id in
                guard let page = try CapturePage.load(id: try Self.capture(id, catalogue), from: catalogue) else {
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
