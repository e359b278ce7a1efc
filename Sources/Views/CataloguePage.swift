package import Catalog
import Vocabulary

/// The catalogue: a grid of captures, newest first, filtered, one page at a time. A page is one
/// cursor-paged read of the filter's index (`Catalogue.forEachCapture`), the first photos of its
/// captures in one more, and a count of the matches that stops at `countLimit`: its cost does not
/// grow with the catalogue.
package struct CataloguePage: Sendable {
    package var query: CatalogueQuery
    package var cards: [CaptureCard]
    /// Every agent, by id: the names cards and JSON show.
    package var agents: [String: Agent]
    /// How many captures the filters match, counted up to `countLimit`.
    package var matching: Int
    /// Where the next (older) page starts; nil on the last page.
    package var next: CaptureCursor?

    /// Captures a page shows.
    package static let pageSize = 48
    /// Matches are counted up to this many: "more than 10,000" is as useful as the exact number.
    package static let countLimit = 10_001

    /// The page `query` asks for, of at most `size` captures.
    package static func load(_ query: CatalogueQuery, from catalogue: Catalogue, size: Int = pageSize) throws -> CataloguePage {
        var found: [(Capture, Product?)] = []
        try catalogue.forEachCapture(matching: query.filter, limit: size + 1, before: query.before) { found.append(($0, $1)) }
        let next = found.count > size ? CaptureCursor(found[size - 1].0) : nil
        let agents = try catalogue.agents()
        let cards = try CaptureCard.cards(Array(found.prefix(size)), agents: agents, from: catalogue)
        // A first page that is not full holds every match: no count needed (a rare search text would
        // read the whole catalogue a second time).
        let matching = query.before == nil && found.count <= size
            ? found.count : try catalogue.count(matching: query.filter, upTo: countLimit)
        return CataloguePage(query: query, cards: cards, agents: agents, matching: matching, next: next)
    }

    /// The page; `exportPage` numbers it within a static export, which has no filters.
    package func html(_ context: PageContext, exportPage: Int? = nil) -> HTML {
        let links = context.links
        let count = matching >= Self.countLimit ? "More than \(Self.countLimit - 1)" : "\(matching)"
        let problems: [HTML] = query.problems.map { "<p class=\"problem\">\($0)</p>" }
        let merge: HTML = context.canCorrect && !cards.isEmpty ? context.mergeForm : ""
        let grid = cards.map { $0.html(context, selectable: context.canCorrect) }
        return PageLayout.page(title: "Catalogue", context: context, content: """
            <h1>Catalogue</h1>
            \(exportPage == nil ? filters(links) : "")\(problems)
            <p class="count">\(count) capture\(matching == 1 ? "" : "s")\(query.isFiltered ? " match" : "") · newest first</p>
            \(merge)
            <section class="grid">
            \(grid.isEmpty ? "<p class=\"empty\">No captures.</p>" : HTML.joined(grid))
            </section>
            \(pager(links, exportPage: exportPage))
            """)
    }

    private func filters(_ links: PageLinks) -> HTML {
        func field(_ name: String, _ label: String, _ value: String, type: String = "text") -> HTML {
            "<label>\(label) <input type=\"\(type)\" name=\"\(name)\" value=\"\(value)\"></label>"
        }
        let ratings: [HTML] = Rating.allCases.map(\.rawValue).map { name in
            "<option\(query.rating.lowercased() == name.lowercased() ? " selected" : "")>\(name)</option>"
        }
        return """
            <form class="filters" method="get" action="\(links.catalogue())">
            \(field("q", "Search", query.search, type: "search"))
            \(field("agent", "Agent", query.agent))
            \(field("set", "Set", query.setName))
            \(field("barcode", "Barcode", query.barcode))
            <label><input type="checkbox" name="nobarcode" value="1"\(query.noBarcode ? " checked" : "")> no barcode</label>
            <label>Rating <select name="rating"><option value="">any</option>\(ratings)</select></label>
            \(field("since", "From", query.since, type: "date"))
            \(field("until", "To", query.until, type: "date"))
            <button type="submit">Filter</button> <a href="\(links.catalogue())">clear</a>
            </form>
            """
    }

    private func pager(_ links: PageLinks, exportPage: Int?) -> HTML {
        var items: [HTML] = []
        if let page = exportPage {
            if page > 1 { items.append("<a href=\"\(links.catalogue(exportPage: page - 1))\">← Newer</a>") }
            if next != nil { items.append("<a href=\"\(links.catalogue(exportPage: page + 1))\" rel=\"next\">Older →</a>") }
        } else {
            if query.before != nil { items.append("<a href=\"\(links.catalogue(query.queryString()))\">Newest</a>") }
            if let next { items.append("<a href=\"\(links.catalogue(query.queryString(before: next)))\" rel=\"next\">Older →</a>") }
        }
        return items.isEmpty ? "" : "<nav class=\"pager\">\(HTML.joined(items, separator: " "))</nav>"
    }
}

extension CaptureCard {
    /// Cards for captures with their products: the first photos, the hits and what the print says
    /// in one read each, the agents' names from `agents`.
    static func cards(_ found: [(Capture, Product?)], agents: [String: Agent], from catalogue: Catalogue) throws -> [CaptureCard] {
        let firsts = try catalogue.firstPhotos(ofCaptures: found.map(\.0.id))
        let hits = try catalogue.hits(ofCaptures: found.map(\.0.id))
        let packageTexts = try catalogue.packageText(ofCaptures: found.map(\.0.id))
        return found.map { capture, product in
            CaptureCard(capture: capture, product: product, thumbnail: firsts[capture.id],
                        agentName: capture.agentName(latestIn: agents), hits: hits[capture.id] ?? [],
                        packageText: packageTexts[capture.id])
        }
    }
}
