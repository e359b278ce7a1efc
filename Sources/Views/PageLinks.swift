import Catalog

/// Where a page's links lead: the server's URLs, or the files of a static export, relative to the
/// page (`file://` has no root to lead from).
package struct PageLinks: Hashable, Sendable {
    enum Style: Hashable, Sendable {
        case server
        /// A static export; `up` leads from the page's folder to the export's root ("" or "../").
        case export(up: String)
    }

    let style: Style

    /// The links of `ingest serve`'s pages.
    package static let server = PageLinks(style: .server)

    /// The links of an exported page at `depth` folders below the export's root.
    package static func export(depth: Int) -> PageLinks {
        PageLinks(style: .export(up: String(repeating: "../", count: depth)))
    }

    /// Whether the pages are files, without a server to send corrections to.
    package var isExport: Bool { style != .server }

    /// The catalogue, filtered and placed as `query` says; `exportPage` is the page number of an export.
    func catalogue(_ query: String = "", exportPage: Int = 1) -> String {
        switch style {
        case .server: query.isEmpty ? "/" : "/?" + query
        case .export(let up): up + (exportPage == 1 ? "index.html" : "page-\(exportPage).html")
        }
    }

    func capture(_ id: String) -> String {
        switch style {
        case .server: "/captures/\(id)"
        case .export(let up): up + "captures/\(id).html"
        }
    }

    func thumbnail(_ photo: Photo) -> String {
        switch style {
        case .server: "/photos/\(photo.id)/thumbnail"
        case .export(let up): up + "thumbs/\(photo.id).jpg"
        }
    }

    /// The original as it was photographed; an export has only the thumbnail to offer.
    func original(_ photo: Photo) -> String {
        switch style {
        case .server: "/photos/\(photo.id)/original"
        case .export: thumbnail(photo)
        }
    }

    func review() -> String { "/review" }

    func edits() -> String { "/edits" }

    func asset(_ name: String) -> String {
        switch style {
        case .server: "/assets/\(name)"
        case .export(let up): up + "assets/\(name)"
        }
    }
}
