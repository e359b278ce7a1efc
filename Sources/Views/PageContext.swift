package import Catalog

/// What a page needs to know besides its data: where links lead, whether it may offer corrections,
/// and an edit just made to report.
package struct PageContext: Sendable {
    package var links: PageLinks
    /// The token every form that changes something carries against cross-site requests; nil when
    /// the page offers no corrections.
    package var csrfToken: String?
    /// `serve --read-only`: corrections are off, and the pages say so.
    package var readOnly: Bool
    /// Whether the visitor signed in with the token (the page then offers to sign out).
    package var signedIn: Bool
    /// The edit the last request made, shown at the top with a button to undo it.
    package var notice: Edit?

    package init(links: PageLinks, csrfToken: String? = nil, readOnly: Bool = false, signedIn: Bool = false,
                notice: Edit? = nil) {
        self.links = links
        self.csrfToken = csrfToken
        self.readOnly = readOnly
        self.signedIn = signedIn
        self.notice = notice
    }

    /// The context of a static export: relative links, no forms.
    package static func export(depth: Int) -> PageContext {
        PageContext(links: .export(depth: depth))
    }

    /// Whether the page offers corrections.
    var canCorrect: Bool { csrfToken != nil && !readOnly && !links.isExport }

    /// A form that POSTs to `action` with the CSRF token, `fields` and a button; `confirm` is asked
    /// first by the page's script.
    func form(_ action: String, fields: HTML = "", button: String, confirm: String? = nil, classes: String = "") -> HTML {
        let confirmAttribute: HTML = confirm.map { " data-confirm=\"\($0)\"" } ?? ""
        return """
            <form method="post" action="\(action)" class="inline \(classes)"\(confirmAttribute)>\
            <input type="hidden" name="csrf" value="\(csrfToken ?? "")">\(fields)<button type="submit">\(button)</button></form>
            """
    }

    /// The form the ticked cards of a grid belong to (`form="merge"`): they become one capture.
    var mergeForm: HTML {
        """
        <form id="merge" method="post" action="/captures/merge" class="merge">\
        <input type="hidden" name="csrf" value="\(csrfToken ?? "")">\
        <button type="submit" id="merge-button">Merge selected</button> \
        <span class="hint">tick two captures or more; they become the first one ticked</span></form>
        """
    }
}
