import Catalog
import FileSystem
import Foundation
import Hummingbird
import Logging
import Pipeline
import Synchronization
import Views

/// Uploads from phones and programs: `POST /api/sets` stages a set and moves it into the inbox
/// whole; `GET /api/sets/{name}` says what became of it; `/capture` is the page that uploads.
struct UploadRoutes {
    let catalogue: Catalogue
    let config: PipelineConfig
    let logger: Logger
    let readOnly: Bool
    /// Whether set `name` is being ingested by a watch in this process (`serve --watch`).
    let ingesting: @Sendable (String) -> Bool
    /// Whether uploaded sets are ingested by this process (`serve --watch`) rather than by a watch beside it.
    let watching: Bool

    /// Where uploads are written until they are complete.
    var staging: UploadStaging { UploadStaging(config: config) }

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let sets = routes.group(RouterPath(AccessMiddleware.uploads))
        sets.post { request, context in
            let (set, photos) = try await receiveUpload(request, context)
            let status = "/api/sets/\(set)"
            var response = Responses.json(UploadJSON(set: set, status: status, photos: photos), status: .created)
            response.headers[.location] = status
            return response
        }
        sets.get(":name") { _, context in
            let name = try context.parameters.require("name")
            let found = try await blocking { [config, catalogue, ingesting] in
                try UploadedSet.look(name, config: config, catalogue: catalogue, isIngesting: ingesting)
            }
            guard let found else { throw HTTPError.notFound("no uploaded set is named '\(name)'.") }
            return Responses.json(found)
        }
        routes.get("/capture") { request, context in
            var response = Responses.html(UploadPage.page(limits: config.upload, watching: watching,
                                                          context: context.page(readOnly: readOnly)))
            if context.access.csrfToken != nil, let cookie = DraftRoutes.deviceCookie(for: request) { response.setCookie(cookie) }
            return response
        }
        return routes
    }

    /// Streams the request's photos into a staging folder, then moves the complete set into the inbox;
    /// anything short of that removes what was staged. Returns the set's name and its photos' names.
    private func receiveUpload(_ request: Request, _ context: WebContext) async throws -> (String, [String]) {
        let limits = config.upload
        let staging = staging
        let declared = try Self.checkUpload(request, limits: limits)
        try await blocking { try staging.checkSpace(for: declared ?? 0) }
        let staged = try await blocking { try staging.begin() }
        do {
            let capture = try await Self.receive(request, into: staged, staging: staging, limits: limits)
            try await blocking {
                if let capture { try staged.write(capture) }
                try staged.commit()
            }
            logger.notice("upload received", metadata: [
                "set": "\(staged.name)", "photos": "\(staged.photos.count)", "bytes": "\(staged.bytesWritten)",
                "agentId": "\(capture?.agentId ?? "")", "requestId": "\(capture?.requestId ?? "")", "from": "\(context.remoteAddress)",
            ])
            return (staged.name, staged.photos)
        } catch {
            try? await blocking { staged.discard() }
            logger.warning("upload refused", metadata: ["set": "\(staged.name)", "from": "\(context.remoteAddress)",
                                                        "error": "\(error)"])
            throw error
        }
    }

    /// Refuses a request that is no multipart upload or declares more bytes than `limits` take;
    /// returns the bytes it declares, if it does.
    static func checkUpload(_ request: Request, limits: UploadLimits) throws -> Int64? {
        guard let type = request.headers[.contentType], boundary(type) != nil else {
            throw UploadRefusal(.badRequest, "send the photos as multipart/form-data (a form with file inputs, curl -F).")
        }
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let declared, declared > limits.maxRequestBytes {
            throw UploadRefusal(.tooLarge, "the upload is larger than \(limits.maxRequestMB) MB (uploadMaxRequestMB).")
        }
        return declared
    }

    /// Streams the photos of a multipart request (checked by `checkUpload`) into `staged`, each
    /// whole and flushed once this returns; returns the capture context its fields give.
    static func receive(_ request: Request, into staged: StagedUpload, staging: UploadStaging,
                        limits: UploadLimits) async throws -> CaptureContext? {
        guard let type = request.headers[.contentType], let boundary = boundary(type) else {
            throw UploadRefusal(.badRequest, "send the photos as multipart/form-data (a form with file inputs, curl -F).")
        }
        let receiver = UploadReceiver(boundary: boundary, staged: staged, staging: staging, limits: limits)
        try await streaming(request.body, idleSeconds: limits.idleSeconds) { buffer in
            try await blocking { try receiver.receive(buffer) }
        }
        return try await blocking { try receiver.finish() }
    }

    /// Hands each buffer of `body` to `take`, one after another; throws `UploadRefusal.tooSlow` when
    /// the client sends nothing for `idleSeconds` (the read is then cancelled, and the connection closed).
    static func streaming(_ body: RequestBody, idleSeconds: Double,
                          _ take: @escaping @Sendable (ByteBuffer) async throws -> Void) async throws {
        let lastByte = LastByte()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await buffer in body {
                        lastByte.now()
                        try await take(buffer)
                        lastByte.now()
                    }
                } catch let error as UploadRefusal {
                    throw error
                } catch let error as FileOperationError {
                    throw error
                } catch {
                    throw UploadRefusal(.badRequest, "the upload was cut short (\(error)).")
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: .milliseconds(250))
                    if lastByte.idle > .seconds(idleSeconds) {
                        throw UploadRefusal(.tooSlow, "the upload sent nothing for \(Int(idleSeconds)) seconds "
                            + "(uploadIdleSeconds) and was cut off.")
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// The boundary of a `multipart/form-data` Content-Type; nil for any other type.
    static func boundary(_ contentType: String) -> String? {
        let items = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.first?.lowercased() == "multipart/form-data" else { return nil }
        for item in items.dropFirst() where item.lowercased().hasPrefix("boundary=") {
            var value = item.dropFirst("boundary=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value.isEmpty || value.count > 200 ? nil : String(value)
        }
        return nil
    }

    /// When the last bytes of an upload came.
    final class LastByte: Sendable {
        private let time = Mutex(ContinuousClock.now)
        func now() { time.withLock { $0 = .now } }
        var idle: Duration { time.withLock { $0 }.duration(to: .now) }
    }

    struct UploadJSON: Encodable {
        var set: String
        var status: String
        var photos: [String]
    }
}
