import Hummingbird

/// A request that cannot be answered as asked: the status and a sentence the person can act on.
/// Shown as a page, or as JSON under `/api/`; never with a stack trace.
struct WebError: Error {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers (`WWW-Authenticate`, `Content-Range`).
    var headers: HTTPFields = [:]

    static func notFound(_ message: String) -> WebError { WebError(status: .notFound, message: message) }
    static func badRequest(_ message: String) -> WebError { WebError(status: .badRequest, message: message) }
    static func forbidden(_ message: String) -> WebError { WebError(status: .forbidden, message: message) }
    static func conflict(_ message: String) -> WebError { WebError(status: .conflict, message: message) }
}
