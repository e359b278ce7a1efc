import Catalog
import Foundation

/// `ingest show` as a person reads it: the capture, its agent, then every photo with its files,
/// measurements and barcode hits. Paths are absolute, ready to open.
struct CaptureDescription {
    var capture: Capture
    var agent: Agent?
    /// The product of the capture's barcode, when the catalogue has one.
    var product: Product?
    var photos: [(photo: Photo, hits: [BarcodeHit])]
    var library: String

    var text: String {
        var lines = [
            "capture   \(capture.id)",
            "set       \(capture.setName)",
            "captured  \(capture.capturedAt) (\(capture.timeSource.explanation))",
            "barcode   " + (capture.barcode.map { code in
                code + " (" + ([capture.symbology?.rawValue, capture.gtin13.map { "GTIN-13 \($0)" }].compactMap { $0 }.joined(separator: ", ")) + ")"
            } ?? "none"),
            "product   " + (product.map { ProductDescription(product: $0, indent: "          ").lines.joined(separator: "\n") }
                ?? "\(capture.fallbackProductName) (no product data)"),
            "quality   \(capture.rating.rawValue) (\(Self.number(capture.quality)))",
        ]
        if let agentId = capture.agentId {
            var name = agent?.name ?? capture.agentName ?? agentId
            if let then = capture.agentName, then != name { name += " (at capture: \(then))" }
            lines.append("agent     \(name) [\(agentId)]")
        }
        if let request = capture.requestId { lines.append("request   \(request)") }
        if let note = capture.note { lines.append("note      " + note.replacingOccurrences(of: "\n", with: "\n          ")) }
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
            "  \(photo.position + 1). \(photo.originalName)  \(photo.format) \(photo.width)×\(photo.height), "
                + "\(ByteCountFormatter.string(fromByteCount: photo.byteSize, countStyle: .file))"
                + (camera.isEmpty ? "" : ", \(camera)"),
            "     taken      \(photo.takenAt) (\(photo.timeSource.explanation))",
            "     original   \(path(photo.originalPath))",
            "     thumbnail  \(path(photo.thumbPath)) (\(photo.thumbWidth)×\(photo.thumbHeight))",
            "     quality    \(photo.rating.rawValue) (\(Self.number(photo.quality))): sharpness \(Self.number(photo.sharpness)), "
                + "contrast \(Self.number(photo.contrast)), brightness \(Self.number(photo.brightness)), "
                + "decode \(photo.decodeConfidence.map(Self.number) ?? "-")",
        ]
        for hit in hits {
            lines.append("     barcode    \(hit.symbology.rawValue) \(hit.text)" + (hit.gtin13.map { " (GTIN-13 \($0))" } ?? "")
                + ", ZBar quality \(hit.quality), at \(hit.x),\(hit.y) \(hit.width)×\(hit.height)")
        }
        if hits.isEmpty { lines.append("     barcode    none") }
        return lines
    }

    private func path(_ relative: String) -> String {
        (library as NSString).appendingPathComponent(relative)
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
