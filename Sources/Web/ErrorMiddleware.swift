import Catalog
import FileSystem
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Pipeline
import Views

/// Turns every error a route or middleware throws into an answer a person or program can act on: a
/// page, or JSON (`{"error": {"status": …, "message": …}}`) under `/api/`. What the person can fix
/// (a capture gone, a merge of two barcodes) says so; anything else is logged and answered with a
/// plain 500, never with its details.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = WebContext

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(error, path: request.uri.path)
            if problem.status == .internalServerError {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            }
            var response = request.uri.path.hasPrefix("/api/")
                ? Responses.json(ErrorJSON(error: .init(status: problem.status.code, message: problem.message)), status: problem.status)
                : Responses.html(MessagePages.error(status: problem.status.code, title: problem.status.reasonPhrase,
                                                   message: problem.message, context: PageContext(links: .server)),
                                 status: problem.status)
            response.headers.append(contentsOf: problem.headers)
            return response
        }
    }

    /// The status and the sentence for `error`.
    static func problem(_ error: any Error, path: String) -> WebError {
        switch error {
        case let error as WebError:
            return error
        case let error as HTTPError:
            return WebError(status: error.status, message: error.status == .notFound
                ? "nothing at \(path): see the catalogue." : error.body ?? error.status.reasonPhrase)
        case let error as CorrectionError:
            if case .invalidBarcode = error { return WebError.badRequest(error.description) }
            return WebError.conflict(error.description)
        case let error as EditError:
            if case .unknownCapture = error { return WebError.notFound(error.description) }
            if case .unknownPhoto = error { return WebError.notFound(error.description) }
            if case .unknownEdit = error { return WebError.notFound(error.description) }
            return WebError.conflict(error.description)
        case let error as ProductEntryError:
            return WebError.badRequest(error.description)
        case is NIOTooManyBytesError:
            return WebError(status: .contentTooLarge, message: "the request's body is larger than a form or a correction takes "
                + "(photos are uploaded to /api/sets).")
        case let error as UploadRefusal:
            return WebError(status: uploadStatus[error.kind] ?? .badRequest, message: error.message)
        case let error as FileOperationError where error.isOutOfSpace:
            return WebError(status: .insufficientStorage507, message: "the server's disk is full; nothing of this upload was kept.")
        case let error as CatalogError where error.isStorageFailure:
            return WebError(status: .serviceUnavailable, message: error.description)
        default:
            return WebError(status: .internalServerError, message: "the server could not answer this request; "
                + "its log says why.")
        }
    }

    /// The status of each kind of refused upload.
    static let uploadStatus: [UploadRefusal.Kind: HTTPResponse.Status] = [
        .tooLarge: .contentTooLarge, .notAPhoto: .unsupportedMediaType, .badRequest: .badRequest,
        .diskFull: .insufficientStorage507, .tooSlow: .requestTimeout,
    ]

    struct ErrorJSON: Encodable {
        var error: Body
        struct Body: Encodable {
            var status: Int
            var message: String
        }
    }
}

/// Headers every answer carries: a Content-Security-Policy that allows this server's own script,
/// style and images only (no inline script, no framing, forms posting only here), no MIME sniffing,
/// referrers kept on this site, images not embeddable elsewhere.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = WebContext

    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        return response
    }
}

extension HTTPResponse.Status {
    /// 507 (RFC 4918): the server cannot store what the request brings; HTTPTypes names it not.
    static let insufficientStorage507 = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
