import Catalog

/// The frame around every page: head, navigation, the notice of an edit just made, then the content.
/// No inline script or style: the page's one script and stylesheet are files (`Assets`), so the
/// server's Content-Security-Policy can forbid everything else.
enum PageLayout {
    static func page(title: String, context: PageContext, content: HTML) -> HTML {
        let links = context.links
        let csrf: HTML = context.csrfToken.map { "<meta name=\"csrf-token\" content=\"\($0)\">" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · ingest</title>
            <link rel="icon" href="\(links.asset("icon.svg"))" type="image/svg+xml">
            <link rel="stylesheet" href="\(links.asset("app.css"))">
            <script src="\(links.asset("app.js"))" defer></script>
            \(csrf)
            </head>
            <body>
            <header class="top">\(navigation(context))</header>
            <main>
            \(notice(context))\(content)
            </main>
            </body>
            </html>

            """
    }

    private static func navigation(_ context: PageContext) -> HTML {
        let links = context.links
        var items: [HTML] = ["<a class=\"brand\" href=\"\(links.catalogue())\">ingest</a>",
                             "<a href=\"\(links.catalogue())\">Catalogue</a>"]
        if !links.isExport {
            items.append("<a href=\"\(links.review())\">Review</a>")
            items.append("<a href=\"\(links.edits())\">Edits</a>")
            if context.canCorrect { items.append("<a href=\"/capture\">Capture</a>") }
        }
        if context.readOnly { items.append("<span class=\"badge\" title=\"corrections are turned off\">read-only</span>") }
        if context.signedIn {
            items.append(context.form("/signout", button: "Sign out", classes: "signout"))
        }
        return "<nav>\(items)</nav>"
    }

    /// What the last request changed, and the button that undoes it.
    private static func notice(_ context: PageContext) -> HTML {
        guard let edit = context.notice else { return "" }
        let undo: HTML = context.canCorrect && edit.undoneBy == nil
            ? context.form("/edits/\(edit.id)/undo", button: edit.kind == .undo ? "Redo" : "Undo") : ""
        return "<div class=\"notice\" id=\"notice\">Edit #\(edit.id): \(edit.summary). \(undo)</div>\n"
    }
}
