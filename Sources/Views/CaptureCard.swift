package import Catalog
import Foundation
import Vocabulary

/// One capture as the catalogue grid and the review queue show it.
package struct CaptureCard: Sendable {
    package var capture: Capture
    package var product: Product?
    /// The first photo, whose thumbnail the card shows.
    package var thumbnail: Photo?
    /// The agent's latest name, else the one at capture time.
    package var agentName: String?
    /// Its photos' barcode hits, in their order.
    package var hits: [BarcodeHit]
    /// What its photos' print says: a name from the package, the nutrition table.
    package var packageText: PackageText?

    package init(capture: Capture, product: Product?, thumbnail: Photo?, agentName: String?, hits: [BarcodeHit],
                 packageText: PackageText? = nil) {
        self.capture = capture
        self.packageText = packageText
        self.hits = hits
        self.product = product
        self.thumbnail = thumbnail
        self.agentName = agentName
    }

    /// The card; with `selectable`, a box to tick it for a merge (the form `merge`).
    func html(_ context: PageContext, selectable: Bool) -> HTML {
        let links = context.links
        let link = links.capture(capture.id)
        let image: HTML = thumbnail.map { photo in
            "<img src=\"\(links.thumbnail(photo))\" width=\"\(photo.thumbWidth)\" height=\"\(photo.thumbHeight)\" alt=\"\" loading=\"lazy\">"
        } ?? "<span class=\"nothumb\">no photo</span>"
        let select: HTML = selectable
            ? "<label class=\"pick\"><input type=\"checkbox\" name=\"capture[]\" value=\"\(capture.id)\" form=\"merge\"> select</label>"
            : ""
        let agent: HTML = agentName.map { "<span class=\"agent\" title=\"agent\">\($0)</span>" } ?? ""
        return """
            <article class="card" data-id="\(capture.id)">
            <a class="thumb" href="\(link)">\(image)</a>
            <div class="facts">
            <h3><a href="\(link)">\(Self.title(capture, product))</a></h3>
            \(Self.brand(product))<p class="code">\(Self.code(capture))</p>
            <p class="meta"><time datetime="\(capture.capturedAt)">\(Self.shortTime(capture.capturedAt))</time> · \
            <span class="set" title="set">\(capture.setName)</span> \(agent)</p>
            <p class="meta">\(capture.photoCount) photo\(capture.photoCount == 1 ? "" : "s") \(Self.rating(capture.rating))\(select)</p>
            </div>
            </article>

            """
    }

    /// The product's name, else the capture's fallback name.
    static func title(_ capture: Capture, _ product: Product?) -> String {
        product?.name ?? capture.fallbackProductName
    }

    static func brand(_ product: Product?) -> HTML {
        guard let brands = product?.brands, !brands.isEmpty else { return "" }
        return "<p class=\"brand\">\(brands)</p>"
    }

    /// The barcode and its symbology, or that there is none.
    static func code(_ capture: Capture) -> HTML {
        guard let barcode = capture.barcode else { return "<span class=\"none\">no barcode</span>" }
        return "\(barcode) <span class=\"symbology\">\(capture.symbology?.rawValue)</span>"
    }

    /// The rating as a coloured badge.
    static func rating(_ rating: Rating) -> HTML {
        "<span class=\"rating rating-\(rating.rawValue.lowercased())\">\(rating.rawValue)</span>"
    }

    /// `2026-11-21T14:03:07.123+01:00` → `2026-11-21 14:03`: the capture's own clock, to the minute.
    static func shortTime(_ iso: String) -> String {
        String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
