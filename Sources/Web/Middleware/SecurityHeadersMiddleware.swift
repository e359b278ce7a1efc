import HTTPTypes
import Hummingbird

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

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
