import Catalog
import Foundation
import Hummingbird
import Imaging
import Logging
import Pipeline
import Views

/// The capture flow's drafts (`/api/drafts`): one capture put together photo by photo on a phone —
/// the barcode first, read at once and named from the product data, then the front, the label and
/// more — and saved into the inbox as one set, or cancelled. Each draft is its session's: another
/// session (or a program with the token) is told it does not exist.
struct DraftRoutes {
    let drafts: DraftStore
    let catalogue: Catalogue
    let logger: Logger

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.post { request, context in
            let owner = Self.owner(request, context)
            let draft = try await blocking { [drafts] in try drafts.create(owner: owner) }
            var response = try await answer(draft, status: .created)
            response.headers[.location] = "/api/drafts/\(draft.id)"
            return response
        }
        let draft = routes.group(":id")
        draft.get { request, context in
            let (id, owner) = try Self.address(request, context)
            return try await answer(blocking { [drafts] in try drafts.draft(id, owner: owner) })
        }
        draft.delete { request, context in
            let (id, owner) = try Self.address(request, context)
            try await blocking { [drafts] in try drafts.cancel(id, owner: owner) }
            logger.notice("draft cancelled", metadata: ["draft": "\(id)", "from": "\(context.remoteAddress)"])
            return Response(status: .noContent)
        }
        draft.post("photos") { request, context in
            let (id, owner) = try Self.address(request, context)
            let role = try Self.role(Forms.query(PhotoParameters.self, request).role)
            return try await answer(receive(request, role: role, draft: id, owner: owner, context))
        }
        draft.delete("photos/:number") { request, context in
            let (id, owner) = try Self.address(request, context)
            let number = try Self.number(context)
            return try await answer(blocking { [drafts] in try drafts.removePhoto(number, from: id, owner: owner) })
        }
        draft.get("photos/:number/thumbnail") { request, context in
            let (id, owner) = try Self.address(request, context)
            let number = try Self.number(context)
            let bytes = try await blocking { [drafts] in try drafts.thumbnail(number, of: id, owner: owner) }
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        draft.post("save") { request, context in
            let (id, owner) = try Self.address(request, context)
            let body = try Forms.json(SaveBody.self, context.body, what: "the draft's agent and note (or {})")
            let set = try await blocking { [drafts, catalogue] in
                try drafts.save(id, owner: owner, context: body.context(resolvingIn: catalogue))
            }
            logger.notice("draft saved", metadata: ["draft": "\(id)", "set": "\(set)", "from": "\(context.remoteAddress)"])
            let status = "/api/sets/\(set)"
            var response = Responses.json(SavedJSON(set: set, status: status), status: .created)
            response.headers[.location] = status
            return response
        }
        return routes
    }

    /// Streams the request's photos into draft `id` as `role`'s, reads them, and returns the draft.
    private func receive(_ request: Request, role: DraftPhoto.Role, draft id: String, owner: String,
                         _ context: WebContext) async throws -> Draft {
        var limits = drafts.config.upload
        let declared = try UploadRoutes.checkUpload(request, limits: limits)
        let staging = UploadStaging(config: drafts.config)
        try await blocking { try staging.checkSpace(for: declared ?? 0) }
        let (upload, room) = try await blocking { [drafts] in try drafts.beginUpload(to: id, owner: owner) }
        do {
            // As many photos as the draft has room for (of a barcode, front or label photo, the last is kept).
            limits.maxFiles = room
            _ = try await UploadRoutes.receive(request, into: upload, staging: staging, limits: limits)
            return try await blocking { [drafts] in try drafts.addPhotos(of: upload, as: role, to: id, owner: owner) }
        } catch {
            try? await blocking { upload.discard() }
            logger.warning("draft photo refused", metadata: ["draft": "\(id)", "from": "\(context.remoteAddress)", "error": "\(error)"])
            throw error
        }
    }

    /// The draft as JSON, with what the catalogue knows of its barcode.
    private func answer(_ draft: Draft, status: HTTPResponse.Status = .ok) async throws -> Response {
        let json = try await blocking { [catalogue, drafts] in
            let key = draft.codes.first?.gtin13 ?? draft.codes.first?.text
            let product = try draft.codes.first?.gtin13.flatMap { try catalogue.products(forGTIN13s: [$0])[$0] }
            let capture = try key.flatMap { try catalogue.captures(matching: CaptureFilter(barcode: $0), limit: 1).first }
            return DraftJSON(draft, maxPhotos: drafts.config.upload.maxFiles, product: product, capture: capture)
        }
        return Responses.json(json, status: status)
    }

    /// The draft a request names, and who asks.
    private static func address(_ request: Request, _ context: WebContext) throws -> (id: String, owner: String) {
        (try context.parameters.require("id"), owner(request, context))
    }

    /// The cookie that names a browser to its drafts: set by the capture page, kept for a year, so
    /// that a draft outlives its session (a server restart, signing in again) on the device that
    /// made it, and two browsers never share one.
    static let deviceCookieName = "ingest_device"

    /// Whose drafts a request sees: its browser's (by a hash of the device cookie, never the
    /// cookie itself, on disk), else its session's; a program's with the token; everyone's on a
    /// loopback server without token for a client without the cookie (curl).
    static func owner(_ request: Request, _ context: WebContext) -> String {
        // A browser's access (a session, or loopback): the ones with a CSRF token.
        if context.access.csrfToken != nil, let device = request.cookies[deviceCookieName]?.value, isDeviceId(device) {
            return "device " + Digest.sha256(Array(device.utf8))
        }
        switch context.access {
        case .session(let id, _): return "session " + Digest.sha256(Array(id.utf8))
        case .bearer: return "token"
        case .local: return "local"
        case .anonymous: return "anonymous"
        }
    }

    /// Whether `value` can be a device cookie this server set: 64 hexadecimal digits.
    static func isDeviceId(_ value: String) -> Bool {
        value.utf8.count == 64 && value.allSatisfy(\.isHexDigit)
    }

    /// The device cookie to set on a page's answer, for a browser that has none (or a bad one).
    static func deviceCookie(for request: Request) -> Cookie? {
        if let value = request.cookies[deviceCookieName]?.value, isDeviceId(value) { return nil }
        return Cookie(name: deviceCookieName, value: Sessions.randomToken(), maxAge: 365 * 86_400, path: "/",
                      httpOnly: true, sameSite: .strict)
    }

    private static func number(_ context: WebContext) throws -> Int {
        let text = try context.parameters.require("number")
        guard let number = Int(text), number > 0 else { throw HTTPError.notFound("the draft has no photo \(text.prefix(40)).") }
        return number
    }

    /// `?role=`: what the photo is of; `more` when not given.
    static func role(_ text: String?) throws -> DraftPhoto.Role {
        guard let text = Forms.given(text) else { return .more }
        guard let role = DraftPhoto.Role(rawValue: text) else {
            throw HTTPError.badRequest("role must be one of " + DraftPhoto.Role.allCases.map(\.rawValue).joined(separator: ", ")
                + ", got '\(text.prefix(40))'.")
        }
        return role
    }

    struct PhotoParameters: Decodable { var role: String? }

    /// What a save may bring: the agent context of `capture.json`, and the capture to add the photos to.
    struct SaveBody: Decodable {
        var agentId: String?
        var agentName: String?
        var requestId: String?
        var note: String?
        /// The id (or a prefix of it) of a catalogued capture.
        var addTo: String?

        /// The sidecar to write; nil when the save says nothing. A capture to add to must exist now.
        func context(resolvingIn catalogue: Catalogue) throws -> CaptureContext? {
            let (agentId, agentName, requestId, note) = (Forms.given(agentId), Forms.given(agentName), Forms.given(requestId),
                                                         Forms.given(note))
            for value in [agentId, agentName, requestId, note].compactMap({ $0 }) where value.count > CaptureContext.maximumLength {
                throw HTTPError.badRequest("a field is longer than \(CaptureContext.maximumLength) characters.")
            }
            if agentId == nil, agentName != nil || requestId != nil || note != nil {
                throw HTTPError.badRequest("agentId is missing: an agent's name, a request id or a note needs the agent's id.")
            }
            let addTo = try Forms.given(addTo).map { try Corrections.capture($0, catalogue) }
            guard agentId != nil || addTo != nil else { return nil }
            return CaptureContext(agentId: agentId, agentName: agentName, requestId: requestId, note: note, addTo: addTo)
        }
    }

    struct SavedJSON: Encodable {
        var set: String
        var status: String
    }
}
