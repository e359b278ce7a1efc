package import Catalog
import Foundation
import Vocabulary

/// One capture with everything the catalogue knows: its product, time, agent context, every photo
/// with its barcode hits drawn on the thumbnail and its quality, the edits that touched it, and
/// the corrections a person can make.
package struct CapturePage: Sendable {
    /// A photo and the barcodes read on it.
    package struct PhotoEntry: Sendable {
        package var photo: Photo
        package var hits: [BarcodeHit]
        /// The words read on it; nil until it is read.
        package var text: PhotoText?
    }

    package var capture: Capture
    package var product: Product?
    package var agents: [String: Agent]
    package var photos: [PhotoEntry]
    /// The edits that touched the capture, newest first.
    package var edits: [Edit]
    /// What its photos' print says: a name from the package, the nutrition table.
    package var packageText: PackageText? = nil

    /// Edits the page lists.
    static let historyLength = 20

    /// The page of capture `id` (the whole id); nil when there is none.
    package static func load(id: String, from catalogue: Catalogue) throws -> CapturePage? {
        guard let capture = try catalogue.capture(id: id) else { return nil }
        let rows = try catalogue.photos(ofCapture: capture.id)
        let hits = try catalogue.hits(ofPhotos: rows.map(\.id))
        let texts = try catalogue.texts(ofPhotos: rows.map(\.id))
        let photos = rows.map { PhotoEntry(photo: $0, hits: hits[$0.id] ?? [], text: texts[$0.id]) }
        let product = try capture.gtin13.flatMap { try catalogue.products(forGTIN13s: [$0])[$0] }
        return CapturePage(capture: capture, product: product, agents: try catalogue.agents(), photos: photos,
                           edits: try catalogue.edits(ofCapture: capture.id, limit: historyLength),
                           packageText: try catalogue.packageText(ofCaptures: [capture.id])[capture.id])
    }

    /// What `show --json` prints, and `/api/captures/{id}` answers.
    package var json: CaptureJSON {
        CaptureJSON(capture, agents: agents, product: product, hits: photos.flatMap(\.hits),
                    photos: photos.map { PhotoJSON($0.photo, hits: $0.hits, text: $0.text) }, packageText: packageText)
    }

    package func html(_ context: PageContext) -> HTML {
        let title = CaptureCard.title(capture, product)
        return PageLayout.page(title: title, context: context, content: """
            <h1>\(title) \(CaptureCard.rating(capture.rating))</h1>
            <div class="capture">
            <dl class="facts">\(facts())</dl>
            \(context.canCorrect ? actions(context) : "")
            </div>
            <h2>Photos</h2>
            <section class="photos">
            \(photos.enumerated().map { figure($0.element, index: $0.offset, context) })
            </section>
            \(history(context))
            """)
    }

    private func facts() -> [HTML] {
        var rows: [(String, HTML)] = []
        rows.append(("Barcode", capture.barcode.map { code in
            let gtin: HTML = capture.gtin13.map { " · GTIN-13 \($0)" } ?? ""
            let addon: HTML = capture.addon.map { " · add-on <span class=\"addon\">\($0)</span>" } ?? ""
            return "\(code) <span class=\"symbology\">\(capture.symbology?.rawValue)</span>\(gtin)\(addon)"
        } ?? "<span class=\"none\">none</span>"))
        let others = capture.otherCodes(among: photos.flatMap(\.hits))
        if !others.isEmpty { rows.append(("Also read", HTML.joined(others.map { "\($0)" }, separator: ", "))) }
        rows.append(("Product", productFacts()))
        if let name = nameFromPackage {
            rows.append(("From the package", """
                <strong class="from-package">\(name)</strong> <span class="hint">the largest print on its photos, \
                a suggestion\(capture.gtin13 == nil ? "" : ": Save it as the product's name below")</span>
                """))
        }
        if let nutrition = packageText?.nutrition { rows.append(("Label nutrition", Self.nutritionFacts(nutrition, product: product))) }
        let source = capture.timeSource
        rows.append(("Captured", """
            <time datetime="\(capture.capturedAt)">\(capture.capturedAt)</time> \
            <span class="source source-\(source.rawValue)">\(source.explanation)</span>
            """))
        rows.append(("Set", "\(capture.setName)"))
        if let agentId = capture.agentId {
            let latest = capture.agentName(latestIn: agents) ?? agentId
            let then: HTML = capture.agentName.flatMap { $0 == latest ? nil : " (at capture: \($0))" } ?? ""
            rows.append(("Agent", "\(latest)\(then) <span class=\"id\">\(agentId)</span>"))
        }
        if let request = capture.requestId { rows.append(("Request", "\(request)")) }
        if let note = capture.note { rows.append(("Note", "<span class=\"note\">\(note)</span>")) }
        rows.append(("Quality", "\(capture.rating.rawValue) (\(Self.number(capture.quality)))"))
        rows.append(("Photos", "\(capture.photoCount)"))
        rows.append(("Added", "\(capture.createdAt)"))
        rows.append(("Id", "<span class=\"id\">\(capture.id)</span>"))
        return rows.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }
    }

    /// The name from the package, where the capture's product has no name (a dump's or a
    /// person's name is never replaced by it).
    var nameFromPackage: String? {
        product?.name == nil ? packageText?.name : nil
    }

    /// The values of a nutrition table as read, per 100 g unless it says per serving, each with the
    /// product data's value beside it where that has one, marked where the two disagree.
    static func nutritionFacts(_ nutrition: LabelNutrition, product: Product? = nil) -> HTML {
        let database = product.map { Dictionary(uniqueKeysWithValues: LabelNutrition.database($0).map { ($0.key, $0.value) }) } ?? [:]
        let disagreeing = Set(product.map { nutrition.disagreements(with: $0).map(\.key) } ?? [])
        let parts: [HTML] = LabelNutrition.nutrients.compactMap { nutrient in
            nutrition[keyPath: nutrient.path].map { value in
                let unit = nutrient.key == "energyKJ" ? " kJ" : nutrient.key == "energyKcal" ? " kcal" : " g"
                let name = nutrient.key == "energyKJ" || nutrient.key == "energyKcal" ? "energy" : nutrient.key
                let fact: HTML = "\(name) \(String(format: "%g", value))\(unit)"
                guard nutrition.perServing != true, let known = database[nutrient.key] ?? nil else { return fact }
                let beside: HTML = "\(fact) <span class=\"hint\">(database \(String(format: "%g", known)))</span>"
                return disagreeing.contains(nutrient.key) ? "<mark title=\"label and database disagree\">\(beside)</mark>" : beside
            }
        }
        let basis = nutrition.perServing == true
            ? "per serving" + (nutrition.servingGrams.map { " of \(String(format: "%g", $0)) g" } ?? "") : "per 100 g"
        return HTML.joined(parts, separator: " · ") + " <span class=\"hint\">\(basis), read from the label</span>"
    }

    private func productFacts() -> HTML {
        guard let product else { return "<span class=\"none\">no product data</span>" }
        var parts: [HTML] = ["<strong>\(product.name ?? "(no name)")</strong>"]
        if let brands = product.brands { parts.append("\(brands)") }
        if let quantity = product.quantity { parts.append("\(quantity)") }
        if let grade = product.nutriscoreGrade { parts.append("Nutri-Score \(grade.uppercased())") }
        if let kcal = product.energyKcal { parts.append("\(Self.number(kcal, digits: 0)) kcal/100 g") }
        parts.append("<span class=\"source\">\(product.source == .manual ? "entered by hand" : "Open Food Facts")</span>")
        return HTML.joined(parts, separator: " · ")
    }

    /// `value` with `digits` decimals.
    static func number(_ value: Double, digits: Int = 2) -> String {
        String(format: "%.\(digits)f", value)
    }
}
