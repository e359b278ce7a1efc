package import Catalog

/// What most likely needs a person's look, newest first in each section: a capture without barcode
/// next to one with (a code missed, or a product split in two), many photos (two products in one?),
/// a Poor rating, photos whose time came from the file (the order may be off), a nutrition label
/// that the product's data contradicts.
package struct ReviewPage: Sendable {
    package struct Section: Sendable {
        package var reason: ReviewReason
        package var cards: [CaptureCard]
    }

    package var sections: [Section]

    /// Captures each section shows.
    package static let sectionSize = 24

    package static func load(from catalogue: Catalogue) throws -> ReviewPage {
        let agents = try catalogue.agents()
        return ReviewPage(sections: try ReviewReason.allCases.map { reason in
            let captures = try catalogue.captures(flaggedFor: reason, limit: sectionSize)
            let products = try catalogue.products(forGTIN13s: captures.compactMap(\.gtin13))
            let found = captures.map { ($0, $0.gtin13.flatMap { products[$0] }) }
            return Section(reason: reason, cards: try CaptureCard.cards(found, agents: agents, from: catalogue))
        })
    }

    package func html(_ context: PageContext) -> HTML {
        let parts: [HTML] = sections.map { section in
            let (title, why) = Self.heading(section.reason)
            let grid: [HTML] = section.cards.map { $0.html(context, selectable: context.canCorrect) }
            return """
                <section class="review" id="\(section.reason.rawValue)">
                <h2>\(title) <span class="hint">\(section.cards.count == Self.sectionSize ? "newest \(Self.sectionSize)" : "\(section.cards.count)")</span></h2>
                <p class="hint">\(why)</p>
                <div class="grid">\(grid.isEmpty ? "<p class=\"empty\">None.</p>" : HTML.joined(grid))</div>
                </section>

                """
        }
        let merge: HTML = context.canCorrect ? context.mergeForm : ""
        return PageLayout.page(title: "Review", context: context, content: """
            <h1>Review</h1>
            \(merge)
            \(parts)
            """)
    }

    private static func heading(_ reason: ReviewReason) -> (String, String) {
        switch reason {
        case .noBarcodeBesideOne:
            ("No barcode, next to one with", "A code the reader missed, or one product split in two: merge it with its neighbour.")
        case .manyPhotos:
            ("Many photos", "\(Catalogue.manyPhotos) photos or more: perhaps two products in one capture; split it.")
        case .poor:
            ("Poor photos", "Blurred, dark or low in contrast.")
        case .fileTime:
            ("Time from the file", "No camera time: the file's time was used, so the order and grouping may be off.")
        case .labelDisagrees:
            ("Label and database disagree",
             "The nutrition table read on a photo differs from the product's data by more than a tenth: a misread label, or a dump row for another recipe.")
        }
    }
}
