/// The pages that are not about captures: signing in, and an error.
package enum MessagePages {
    /// The form that takes the token once; the browser then keeps a session cookie. `next` is where
    /// to go afterwards, `failed` says the last token was wrong.
    package static func signIn(next: String, failed: Bool, context: PageContext) -> HTML {
        let problem: HTML = failed ? "<p class=\"problem\">That is not the token this server was started with.</p>" : ""
        return PageLayout.page(title: "Sign in", context: context, content: """
            <h1>Sign in</h1>
            \(problem)<form method="post" action="/signin" class="signin">
            <input type="hidden" name="next" value="\(next)">
            <label>Token <input type="password" name="token" required autofocus autocomplete="current-password"></label>
            <button type="submit">Sign in</button>
            </form>
            <p class="hint">The token given to <code>ingest serve --token</code> or in <code>INGEST_TOKEN</code>.</p>
            """)
    }

    /// An error as a page: the status, what went wrong in words a person can act on, and ways on.
    package static func error(status: Int, title: String, message: String, context: PageContext) -> HTML {
        PageLayout.page(title: title, context: context, content: """
            <h1>\(title)</h1>
            <p class="problem">\(message)</p>
            <p><a href="\(context.links.catalogue())">Catalogue</a> · <a href="/review">Review</a> · \
            <a href="/edits">Edits</a> <span class="hint">(HTTP \(status))</span></p>
            """)
    }
}
