import Catalog
import Foundation
import Hummingbird
import Imaging
import Views

/// The pages: the catalogue, a capture, the review queue, the edits, and their assets.
struct PageRoutes {
    let catalogue: Catalogue
    let readOnly: Bool

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.get("/") { request, context in
            let parameters = try Forms.query(CatalogueParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try CataloguePage.load(parameters.query, from: catalogue), try Self.notice(parameters.edit, catalogue))
            }
            return Responses.html(page.html(context.page(readOnly: readOnly, notice: notice)))
        }
        routes.get("/captures/:id") { request, context in
            let id = try context.parameters.require("id")
            let parameters = try Forms.query(NoticeParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try CapturePage.load(id: id, from: catalogue), try Self.notice(parameters.edit, catalogue))
            }
            guard let page else { throw HTTPError.notFound("no capture \(id) (deleted or merged meanwhile?); see the catalogue.") }
            return Responses.html(page.html(context.page(readOnly: readOnly, notice: notice)))
        }
        routes.get("/review") { _, context in
            let page = try await blocking { [catalogue] in try ReviewPage.load(from: catalogue) }
            return Responses.html(page.html(context.page(readOnly: readOnly)))
        }
        routes.get("/edits") { request, context in
            let parameters = try Forms.query(EditsParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try EditsPage.load(before: Forms.number(parameters.before, "before"), from: catalogue),
                 try Self.notice(parameters.edit, catalogue))
            }
            return Responses.html(page.html(context.page(readOnly: readOnly, notice: notice)))
        }
        routes.get("/assets/:name") { request, context in
            let name = try context.parameters.require("name")
            guard let asset = Assets.files[name] else { throw HTTPError.notFound("no asset \(name).") }
            let tag = "\"\(Self.assetTags[name] ?? "")\""
            var headers: HTTPFields = [.contentType: asset.contentType, .eTag: tag, .cacheControl: "no-cache"]
            if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
            headers[.contentLength] = String(asset.text.utf8.count)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: asset.text)))
        }
        return routes
    }

    /// The edit `?edit=N` names, to report at the top of the page.
    static func notice(_ edit: String?, _ catalogue: Catalogue) throws -> Edit? {
        try Forms.number(edit, "edit").flatMap { try catalogue.edit(id: $0) }
    }

    /// The assets' ETags: the SHA-256 of each.
    static let assetTags: [String: String] = Assets.files.mapValues { Digest.sha256(Array($0.text.utf8)) }

    /// The query of a capture's page: the edit just made, to report.
    struct NoticeParameters: Decodable {
        var edit: String?
    }
}
