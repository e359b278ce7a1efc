import Hummingbird

/// The refusals routes and middlewares throw: Hummingbird's `HTTPError`, its message a sentence the
/// person can act on. `ErrorMiddleware` shows it as a page, or as JSON under `/api/`.
extension HTTPError {
    static func notFound(_ message: String) -> HTTPError { HTTPError(.notFound, message: message) }
    static func badRequest(_ message: String) -> HTTPError { HTTPError(.badRequest, message: message) }
    static func forbidden(_ message: String) -> HTTPError { HTTPError(.forbidden, message: message) }
    static func conflict(_ message: String) -> HTTPError { HTTPError(.conflict, message: message) }
}
