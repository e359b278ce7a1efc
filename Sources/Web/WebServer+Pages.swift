import Catalog
import Foundation
import Hummingbird
import Imaging
import Views

extension WebServer {
    /// The catalogue, a capture, the review queue, the edits, the assets.
    func addPages(to router: Router<WebContext>) {
        router.get("/") { request, context in
            let parameters = try Self.query(CatalogueParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try CataloguePage.load(parameters.query, from: catalogue), try Self.notice(parameters.edit, catalogue))
            }
            return Responses.html(page.html(pageContext(context, notice: notice)))
        }
        router.get("/captures/:id") { request, context in
            let id = try context.parameters.require("id")
            let parameters = try Self.query(NoticeParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try CapturePage.load(id: id, from: catalogue), try Self.notice(parameters.edit, catalogue))
            }
            guard let page else { throw WebError.notFound("no capture \(id) (deleted or merged meanwhile?); see the catalogue.") }
            return Responses.html(page.html(pageContext(context, notice: notice)))
        }
        router.get("/review") { _, context in
            let page = try await blocking { [catalogue] in try ReviewPage.load(from: catalogue) }
            return Responses.html(page.html(pageContext(context)))
        }
        router.get("/edits") { request, context in
            let parameters = try Self.query(EditsParameters.self, request)
            let (page, notice) = try await blocking { [catalogue] in
                (try EditsPage.load(before: Forms.number(parameters.before, "before"), from: catalogue),
                 try Self.notice(parameters.edit, catalogue))
            }
            return Responses.html(page.html(pageContext(context, notice: notice)))
        }
        router.get("/assets/:name") { request, context in
            let name = try context.parameters.require("name")
            guard let asset = Assets.files[name] else { throw WebError.notFound("no asset \(name).") }
            let tag = "\"\(Self.assetTags[name] ?? "")\""
            var headers: HTTPFields = [.contentType: asset.contentType, .eTag: tag, .cacheControl: "no-cache"]
            if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
            headers[.contentLength] = String(asset.text.utf8.count)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: asset.text)))
        }
    }

    /// The edit `?edit=N` names, to report at the top of the page.
    static func notice(_ edit: String?, _ catalogue: Catalogue) throws -> Edit? {
        try Forms.number(edit, "edit").flatMap { try catalogue.edit(id: $0) }
    }

    /// The query of the catalogue (`/`, `/api/captures`): its filters and place as `CatalogueQuery`
    /// reads them, the page's size (API), the edit to report (page).
    struct CatalogueParameters: Decodable {
        var agent, since, until, barcode, nobarcode, rating, set, q, before: String?
        var limit, edit: String?

        var query: CatalogueQuery {
            let pairs: [(String, String?)] = [("agent", agent), ("since", since), ("until", until), ("barcode", barcode),
                                              ("nobarcode", nobarcode), ("rating", rating), ("set", set), ("q", q), ("before", before)]
            return CatalogueQuery(parameters: pairs.compactMap { name, value in value.map { (name, $0) } })
        }
    }

    /// The query of a capture's page: the edit just made, to report.
    struct NoticeParameters: Decodable {
        var edit: String?
    }

    /// The query of the edits (`/edits`, `/api/edits`): the page after edit `before`, the edit to report.
    struct EditsParameters: Decodable {
        var before, edit: String?
    }
}

extension WebServer {
    /// The assets' ETags: the SHA-256 of each.
    static let assetTags: [String: String] = Assets.files.mapValues { Digest.sha256(Array($0.text.utf8)) }
}
