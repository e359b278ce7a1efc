import Catalog
import Hummingbird
import NIOCore
import Views

/// What a request carries through the middlewares to its route: who it comes from, how it got in,
/// and its form, read once.
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address, as edits record their origin.
    let remoteAddress: String
    /// Set by `AccessMiddleware`.
    var access: Access = .anonymous
    /// The body of a form POST (`application/x-www-form-urlencoded`), read by `AccessMiddleware`;
    /// each route decodes its fields (`form(_:)`).
    var formBody: String?
    /// The body of a JSON POST, read by `AccessMiddleware`.
    var body: ByteBuffer?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Forms are small: a few ids and a product name.
    var maxUploadSize: Int { 64 * 1024 }

    /// The form POSTed, as `type` (every field absent when the body was no form).
    func form<T: Decodable>(_ type: T.Type) throws -> T {
        try Forms.decode(type, formBody ?? "", what: "form")
    }

    /// The context pages are drawn with for this request; `notice` an edit to report.
    func page(readOnly: Bool, notice: Edit? = nil) -> PageContext {
        let signedIn: Bool = if case .session = access { true } else { false }
        return PageContext(links: .server, csrfToken: access.csrfToken, readOnly: readOnly, signedIn: signedIn, notice: notice)
    }
}

/// How a request got in.
enum Access: Sendable, Equatable {
    /// Not signed in (only the sign-in page and the assets let it through).
    case anonymous
    /// A server on loopback without a token: everyone on this machine, with the server's CSRF token.
    case local(csrfToken: String)
    /// A browser signed in with the token: its session and the session's CSRF token.
    case session(id: String, csrfToken: String)
    /// A program with `Authorization: Bearer <token>`: no cookie, so no cross-site request can
    /// carry it, and no CSRF token is asked for.
    case bearer

    /// The CSRF token pages embed for this visitor; nil when forms are not for it.
    var csrfToken: String? {
        switch self {
        case .local(let token), .session(_, let token): token
        case .anonymous, .bearer: nil
        }
    }
}
