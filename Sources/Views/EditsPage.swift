package import Catalog

/// The corrections made so far, newest first, each with its state and, while it stands, its undo.
package struct EditsPage: Sendable {
    package var edits: [Edit]
    /// Where the next (older) page starts: the id of this page's last edit; nil on the last page.
    package var next: Int64?

    package static let pageSize = 50

    /// The page of edits made before edit `before` (all when nil).
    package static func load(before: Int64?, from catalogue: Catalogue) throws -> EditsPage {
        let found = try catalogue.edits(limit: pageSize + 1, before: before)
        return EditsPage(edits: Array(found.prefix(pageSize)), next: found.count > pageSize ? found[pageSize - 1].id : nil)
    }

    package func html(_ context: PageContext) -> HTML {
        let rows: [HTML] = edits.map { "<li>\(Self.describe($0, context))</li>" }
        let list: HTML = rows.isEmpty ? "<p class=\"empty\">No edits yet.</p>" : "<ul class=\"history\">\(rows)</ul>"
        let more: HTML = next.map { "<nav class=\"pager\"><a href=\"/edits?before=\($0)\" rel=\"next\">Older →</a></nav>" } ?? ""
        return PageLayout.page(title: "Edits", context: context, content: """
            <h1>Edits</h1>
            <p class="hint">Every correction, newest first. Undo reverts one while the captures it touched are as it \
            left them; an undo is an edit too, and undoing it makes the edit again.</p>
            \(list)
            \(more)
            """)
    }

    /// One edit on one line: number, time, what, where from, state, and its undo while it stands.
    static func describe(_ edit: Edit, _ context: PageContext) -> HTML {
        var state: [HTML] = []
        if let undoes = edit.undoes { state.append("undoes #\(undoes)") }
        if let by = edit.undoneBy { state.append("<span class=\"undone\">undone by #\(by)</span>") }
        if edit.purgedAt != nil { state.append("files purged") }
        let undo: HTML = context.canCorrect && edit.undoneBy == nil && edit.purgedAt == nil
            ? context.form("/edits/\(edit.id)/undo", button: edit.kind == .undo ? "Redo" : "Undo") : ""
        let links: [HTML] = edit.after.map { "<a href=\"\(context.links.capture($0.capture.id))\">\($0.capture.id.prefix(8))</a>" }
        let captures: HTML = links.isEmpty ? "" : "→ \(HTML.joined(links, separator: ", "))"
        return """
            <span class="edit-id">#\(edit.id)</span> <time datetime="\(edit.madeAt)">\(CaptureCard.shortTime(edit.madeAt))</time> \
            <span class="kind">\(edit.kind.rawValue)</span> \(edit.summary) \
            \(captures) \
            <span class="hint">\(edit.origin)\(state.isEmpty ? "" : "; ")\(HTML.joined(state, separator: "; "))</span> \(undo)
            """
    }
}
