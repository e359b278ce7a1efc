import Catalog
import Foundation
import Hummingbird
import Imaging
import Views

extension WebServer {
    /// The catalogue, a capture, the review queue, the edits, the assets.
    func addPages(to router: Router<WebContext>) {
        router.get("/") { request, context in
            let parameters = Self.parameters(request)
            let query = CatalogueQuery(parameters: parameters.fields.map { ($0.name, $0.value) })
            let (page, notice) = try await blocking { [catalogue] in
                (try CataloguePage.load(query, from: catalogue), try Self.notice(parameters, catalogue))
            }
            return Responses.html(page.html(pageContext(context, notice: notice)))
        }
        router.get("/captures/:id") { request, context in
            let id = try context.parameters.require("id")
            let parameters = Self.parameters(request)
            let (page, notice) = try await blocking { [catalogue] in
                (try CapturePage.load(id: id, from: catalogue), try Self.notice(parameters, catalogue))
            }
            guard let page else { throw WebError.notFound("no capture \(id) (deleted or merged meanwhile?); see the catalogue.") }
            return Responses.html(page.html(pageContext(context, notice: notice)))
        }
        router.get("/review") { _, context in
            let page = try await blocking { [catalogue] in try ReviewPage.load(from: catalogue) }
            return Responses.html(page.html(pageContext(context)))
        }
        router.get("/edits") { request, context in
            let parameters = Self.parameters(request)
            let before = parameters.value("before").flatMap { Int64($0) }
            let (page, notice) = try await blocking { [catalogue] in
                (try EditsPage.load(before: before, from: catalogue), try Self.notice(parameters, catalogue))
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
    static func notice(_ parameters: FormBody, _ catalogue: Catalogue) throws -> Edit? {
        try parameters.value("edit").flatMap { Int64($0) }.flatMap { try catalogue.edit(id: $0) }
    }
}

extension WebServer {
    /// The assets' ETags: the SHA-256 of each.
    static let assetTags: [String: String] = Assets.files.mapValues { Digest.sha256(Array($0.text.utf8)) }
}
