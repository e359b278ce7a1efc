import Catalog
import FileSystem
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
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
            let message = problem.body ?? problem.status.reasonPhrase
            var response = request.uri.path.hasPrefix("/api/")
                ? Responses.json(ErrorJSON(error: .init(status: problem.status.code, message: message)), status: problem.status)
                : Responses.html(MessagePages.error(status: problem.status.code, title: problem.status.reasonPhrase,
                                                   message: message, context: PageContext(links: .server)),
                                 status: problem.status)
            response.headers.append(contentsOf: problem.headers)
            return response
        }
    }

    /// The status and the sentence for `error`.
    static func problem(_ error: any Error, path: String) -> HTTPError {
        switch error {
        case let error as HTTPError:
            guard error.body == nil else { return error }
            return HTTPError(error.status, headers: error.headers,
                             message: error.status == .notFound ? "nothing at \(path): see the catalogue." : error.status.reasonPhrase)
        case let error as CorrectionError:
            if case .invalidBarcode = error { return .badRequest(error.description) }
            return .conflict(error.description)
        case let error as EditError:
            switch error {
            case .unknownCapture, .unknownPhoto, .unknownEdit: return .notFound(error.description)
            default: return .conflict(error.description)
            }
        case let error as ProductEntryError:
            return .badRequest(error.description)
        case let error as DraftError:
            let status: HTTPResponse.Status = switch error {
            case .notFound, .noSuchPhoto: .notFound
            case .full: .contentTooLarge
            case .tooMany: .tooManyRequests
            case .empty: .conflict
            }
            return HTTPError(status, message: error.description)
        case is NIOTooManyBytesError:
            return HTTPError(.contentTooLarge, message: "the request's body is larger than a form or a correction takes "
                + "(photos are uploaded to /api/sets).")
        case let error as HTTPParserError:
            // The body's framing, found broken while a route read it.
            return .badRequest("the request's body cannot be read as HTTP/1.1 (\(error)).")
        case let error as UploadRefusal:
            return HTTPError(uploadStatus[error.kind] ?? .badRequest, message: error.message)
        case let error as FileOperationError where error.isOutOfSpace:
            return HTTPError(.insufficientStorage507, message: "the server's disk is full; nothing of this upload was kept.")
        case let error as CatalogError where error.isStorageFailure:
            return HTTPError(.serviceUnavailable, message: error.description)
        default:
            return HTTPError(.internalServerError, message: "the server could not answer this request; its log says why.")
        }
    }

    /// The status of each kind of refused upload.
    static let uploadStatus: [UploadRefusal.Kind: HTTPResponse.Status] = [
        .tooLarge: .contentTooLarge, .notAPhoto: .unsupportedMediaType, .badRequest: .badRequest,
        .diskFull: .insufficientStorage507, .tooSlow: .requestTimeout,
        .headersTooLarge: .requestHeaderFieldsTooLarge,
    ]

    struct ErrorJSON: Encodable {
        var error: Body
        struct Body: Encodable {
            var status: Int
            var message: String
        }
    }
}

extension HTTPResponse.Status {
    /// 507 (RFC 4918): the server cannot store what the request brings; HTTPTypes names it not.
    static let insufficientStorage507 = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
