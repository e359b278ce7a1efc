import Foundation
import Hummingbird
import Views
import Logging

/// Signing in once with the token (a session cookie: HttpOnly, SameSite=Strict), and out.
struct SignInRoutes {
    let settings: ServeSettings
    let sessions: Sessions

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.get("/signin") { request, context in
            let next = try Self.safeNext(Forms.given(Forms.query(SignInForm.self, request).next))
            if settings.token == nil || context.access != .anonymous { return Response.redirect(to: next) }
            return Responses.html(MessagePages.signIn(next: next, failed: false, context: context.page(readOnly: settings.readOnly)))
        }
        routes.post("/signin") { _, context in
            let form = try context.form(SignInForm.self)
            let next = Self.safeNext(Forms.given(form.next))
            guard let token = settings.token else { return Response.redirect(to: next) }
            guard let given = Forms.given(form.token), Sessions.same(given, token) else {
                context.logger.notice("sign-in refused", metadata: ["client": "\(context.remoteAddress)"])
                return Responses.html(MessagePages.signIn(next: next, failed: true, context: context.page(readOnly: settings.readOnly)),
                                      status: .unauthorized)
            }
            let session = sessions.start()
            var response = Response.redirect(to: next)
            response.setCookie(Cookie(name: AccessMiddleware.cookieName, value: session.id,
                                      maxAge: Int(sessions.lifetime), path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        routes.post("/signout") { _, context in
            var response = Response.redirect(to: settings.token == nil ? "/" : "/signin")
            if case .session(let id, _) = context.access {
                sessions.end(id)
                response.setCookie(Cookie(name: AccessMiddleware.cookieName, value: "", maxAge: 0, path: "/",
                                          httpOnly: true, sameSite: .strict))
            }
            return response
        }
        return routes
    }

    /// The sign-in form (and the sign-in page's query, `next` only): the token, and where to go then.
    struct SignInForm: Decodable {
        var token: String?
        var next: String?
    }

    /// Where to go after signing in: a path of this server only, never another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return "/" }
        return next
    }
}
