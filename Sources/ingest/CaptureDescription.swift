import Catalog
import Foundation
import SystemPackage
import Vocabulary

/// `ingest show` as a person reads it: the capture, its agent, then every photo with its files,
/// measurements and barcode hits. Paths are absolute, ready to open. Text from the inbox and the
/// catalogue is escaped for a terminal, each value on its line (`TerminalText`).
struct CaptureDescription {
    var capture: Capture
    var agent: Agent?
    /// The product of the capture's barcode, when the catalogue has one.
    var product: Product?
    var photos: [(photo: Photo, hits: [BarcodeHit])]
    var library: FilePath
    /// The words read on the photos, by photo id.
    var texts: [String: PhotoText] = [:]
    /// What the photos' print says of the product.
    var packageText: PackageText?

    var text: String {
        var lines = [
            "capture   \(capture.id)",
            "set       \(safe(capture.setName))",
            "captured  \(capture.capturedAt) (\(capture.timeSource.explanation))",
            "barcode   " + (capture.barcode.map { code in
                safe(code) + " (" + ([capture.symbology?.rawValue, capture.gtin13.map { "GTIN-13 \($0)" }, capture.addon.map { "add-on \($0)" }]
                    .compactMap { $0 }.joined(separator: ", ")) + ")"
            } ?? "none"),
        ]
        let others = capture.otherCodes(among: photos.flatMap(\.hits))
        if !others.isEmpty { lines.append("also read " + others.map(safe).joined(separator: ", ")) }
        lines += [
            "product   " + (product.map { ProductDescription(product: $0, indent: "          ").lines.joined(separator: "\n") }
                ?? "\(safe(capture.fallbackProductName)) (no product data)"),
            "quality   \(capture.rating.rawValue) (\(Self.number(capture.quality)))",
        ]
        if product?.name == nil, let name = packageText?.name {
            lines.insert("package   \(safe(name)) (the largest print on its photos: a suggestion for its name)", at: lines.count - 1)
        }
        if let nutrition = packageText?.nutrition {
            let values = LabelNutrition.nutrients.compactMap { nutrient in
                nutrition[keyPath: nutrient.path].map { "\(nutrient.key) \(String(format: "%g", $0))" }
            }
            lines.insert("label     " + values.joined(separator: ", ") + (nutrition.perServing == true ? " (per serving)" : " (per 100 g)"),
                         at: lines.count - 1)
            let disagreements = product.map(nutrition.disagreements(with:)) ?? []
            if !disagreements.isEmpty {
                let listed = disagreements.map { "\($0.key) \(String(format: "%g", $0.label)) on the label, \(String(format: "%g", $0.database)) in the database" }
                lines.insert("          disagrees: " + listed.joined(separator: "; "), at: lines.count - 1)
            }
        }
        if let agentId = capture.agentId {
            var name = agent?.name ?? capture.agentName ?? agentId
            if let then = capture.agentName, then != name { name += " (at capture: \(then))" }
            lines.append("agent     \(safe(name)) [\(safe(agentId))]")
        }
        if let request = capture.requestId { lines.append("request   \(safe(request))") }
        if let note = capture.note {
            lines.append("note      " + TerminalText.escapedKeepingLines(note).joined(separator: "\n          "))
        }
        if let context = capture.contextPath { lines.append("context   \(path(context))") }
        lines.append("added     \(capture.createdAt)")
        lines.append("photos    \(capture.photoCount)")
        for (photo, hits) in photos {
            lines += describe(photo, hits: hits)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ photo: Photo, hits: [BarcodeHit]) -> [String] {
        let camera = [photo.make, photo.model].compactMap { $0 }.joined(separator: " ")
        var lines = [
            "  \(photo.position + 1). \(safe(photo.originalName))  \(photo.format) \(photo.width)×\(photo.height), "
                + "\(ByteCountFormatter.string(fromByteCount: photo.byteSize, countStyle: .file))"
                + (camera.isEmpty ? "" : ", \(safe(camera))"),
            "     taken      \(photo.takenAt) (\(photo.timeSource.explanation))",
            "     original   \(path(photo.originalPath))",
            "     thumbnail  \(path(photo.thumbPath)) (\(photo.thumbWidth)×\(photo.thumbHeight))",
            "     quality    \(photo.rating.rawValue) (\(Self.number(photo.quality))): sharpness \(Self.number(photo.sharpness)), "
                + "contrast \(Self.number(photo.contrast)), brightness \(Self.number(photo.brightness)), "
                + "decode \(photo.decodeConfidence.map(Self.number) ?? "-")",
        ]
        for hit in hits {
            lines.append("     barcode    \(hit.symbology.rawValue) \(safe(hit.text))" + (hit.gtin13.map { " (GTIN-13 \($0))" } ?? "")
                + (hit.addon.map { ", add-on \($0)" } ?? "")
                + ", ZBar quality \(hit.quality), at \(hit.x),\(hit.y) \(hit.width)×\(hit.height)")
        }
        if hits.isEmpty { lines.append("     barcode    none") }
        lines.append("     text       " + textLines(texts[photo.id]).joined(separator: "\n                "))
        return lines
    }

    /// A photo's words, line by line, or why there are none.
    private func textLines(_ text: PhotoText?) -> [String] {
        guard let text else { return ["not read yet (ingest text reads it)"] }
        guard text.state == .read else { return ["not read: \(safe(text.reason ?? "given up"))"] }
        return text.words.isEmpty ? ["none read"] : TerminalText.escapedKeepingLines(text.text)
    }

    private func path(_ relative: String) -> String {
        safe(library.appending(relative).string)
    }

    private func safe(_ text: String) -> String {
        TerminalText.escaped(text)
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
