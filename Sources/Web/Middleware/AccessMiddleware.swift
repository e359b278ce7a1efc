import Foundation
import HTTPTypes
import Hummingbird
import Views

/// Who may do what, checked before any route runs:
///
/// - The `Host` header must be one of the server's own names (`AllowedHosts`), so a web page that
///   rebinds its own name to this machine cannot read the pages (and their CSRF token).
/// - With a token, a request must bring it: as a bearer token (programs), or as the session cookie
///   the sign-in page set (browsers). Others are sent to sign in (pages) or refused with 401 (API).
/// - A request that changes something is refused when it comes from another site (`Sec-Fetch-Site`,
///   `Origin`), when it lacks the CSRF token of its session (bearer requests excepted: no browser
///   sends that header by itself), and under `--read-only`.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext

    let settings: ServeSettings
    let sessions: Sessions
    /// The CSRF token of a server without token (loopback): one for everyone, made at start.
    let localCSRFToken: String

    /// The session cookie's name.
    static let cookieName = "ingest_session"

    /// The paths monitoring asks (probes, Prometheus): answered 401 without the token, never redirected.
    static let monitoring: Set<String> = ["/healthz", "/readyz", "/metrics"]

    /// Where uploads are posted: a body not read here (it streams to disk in its route).
    static let uploads = "/api/sets"

    /// Whether a POST to `path` is an upload, whose body its route streams to disk: a set
    /// (`/api/sets`) or a draft's photos (`/api/drafts/{id}/photos`).
    static func isUpload(_ path: String) -> Bool {
        path == uploads || (path.hasPrefix("/api/drafts/") && path.hasSuffix("/photos") && path.split(separator: "/").count == 4)
    }

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var request = request
        var context = context
        let path = request.uri.path
        try checkHost(request)
        context.access = authenticate(request)
        let open = path == "/signin" || path.hasPrefix("/assets/")
        if context.access == .anonymous && !open {
            // Programs (the API, monitoring) are refused; a browser is sent to sign in.
            guard request.method == .get || request.method == .head, !path.hasPrefix("/api/"), !Self.monitoring.contains(path) else {
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"ingest\""],
                                message: "sign in first: this server asks for its token "
                                    + "(a browser signs in at /signin; a program sends Authorization: Bearer TOKEN).")
            }
            let target = request.uri.query.map { path + "?" + $0 } ?? path
            return .redirect(to: "/signin?next=" + CatalogueQuery.percentEncoded(target))
        }
        if request.method != .get && request.method != .head {
            try checkSameSite(request)
            // An upload streams its body to disk in its route; every other body is small and read here.
            if !(Self.isUpload(path) && request.method == .post) {
                let body = try await request.collectBody(upTo: context.maxUploadSize)
                if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                    context.formBody = String(buffer: body)
                } else {
                    context.body = body
                }
            }
            if path != "/signin" {
                try checkCSRF(request, context)
                if settings.readOnly && path != "/signout" {
                    throw HTTPError.forbidden("this server runs with --read-only: corrections and uploads are turned off.")
                }
            }
        }
        return try await next(request, context)
    }

    /// How the request gets in: everyone on a loopback server without token, else its bearer token
    /// or its session.
    private func authenticate(_ request: Request) -> Access {
        guard let token = settings.token else { return .local(csrfToken: localCSRFToken) }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
           Sessions.same(String(header.dropFirst("Bearer ".count)), token) {
            return .bearer
        }
        if let id = request.cookies[Self.cookieName]?.value, let csrf = sessions.csrfToken(of: id) {
            return .session(id: id, csrfToken: csrf)
        }
        return .anonymous
    }

    /// `Host` must be one of the server's names (`AllowedHosts`), whatever the token.
    private func checkHost(_ request: Request) throws {
        guard let authority = request.head.authority else { throw HTTPError.badRequest("the request names no host.") }
        guard settings.allowedHosts.allows(authority) else {
            throw HTTPError.forbidden("this server answers only requests addressed to its own names (localhost, 127.0.0.1, "
                + "its --listen address and each --allowed-host), not to '\(authority.prefix(200))'.")
        }
    }

    /// Refuses a change asked by another site's page.
    private func checkSameSite(_ request: Request) throws {
        if let site = request.headers[.secFetchSite], site == "cross-site" || site == "same-site" {
            throw HTTPError.forbidden("a change asked by another site is refused.")
        }
        if let origin = request.headers[.origin], origin != "null",
           let host = URL(string: origin)?.host(percentEncoded: false), let authority = request.head.authority {
            let port = URL(string: origin)?.port.map { ":\($0)" } ?? ""
            let originAuthority = (host.contains(":") ? "[\(host)]" : host) + port
            guard originAuthority == authority else {
                throw HTTPError.forbidden("a change asked by a page of \(origin) is refused.")
            }
        }
    }

    /// The CSRF token of the visitor must come with the change: a form's `csrf` field or the
    /// `X-CSRF-Token` header.
    private func checkCSRF(_ request: Request, _ context: WebContext) throws {
        guard let expected = context.access.csrfToken else { return }
        let given = try Forms.given(context.form(CSRFField.self).csrf) ?? request.headers[.csrfToken]
        guard let given, Sessions.same(given, expected) else {
            throw HTTPError.forbidden("the form is out of date or came from elsewhere (no valid CSRF token); "
                + "reload the page and try again.")
        }
    }
}

/// The field every form that changes something carries (`PageContext.form`).
struct CSRFField: Decodable {
    var csrf: String?
}

extension HTTPField.Name {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}
