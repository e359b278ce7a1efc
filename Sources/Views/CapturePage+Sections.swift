import Catalog
import Foundation
import Vocabulary

extension CapturePage {
    /// One photo: its thumbnail with the barcode hits drawn over it (SVG, so no inline style is
    /// needed), a link to the original, what was measured, and its corrections.
    func figure(_ entry: PhotoEntry, index: Int, _ context: PageContext) -> HTML {
        let photo = entry.photo
        let links = context.links
        let boxes: [HTML] = entry.hits.map { hit in
            let box = HitBox(hit, on: photo)
            let (x, y) = (Self.number(box.x, digits: 1), Self.number(box.y, digits: 1))
            let (width, height) = (Self.number(box.width, digits: 1), Self.number(box.height, digits: 1))
            return "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\"><title>\(hit.symbology.rawValue) \(hit.text)</title></rect>"
        }
        let camera = [photo.make, photo.model].compactMap { $0 }.joined(separator: " ")
        let barcodes: [HTML] = entry.hits.map { hit in
            "<li>\(hit.symbology.rawValue) \(hit.text) <span class=\"hint\">quality \(hit.quality)</span></li>"
        }
        let read: HTML = entry.hits.isEmpty ? "<p class=\"meta none\">no barcode read</p>" : "<ul class=\"barcodes\">\(barcodes)</ul>"
        // The words' boxes, drawn over the thumbnail as the hits are (hidden until asked for).
        let wordBoxes: [HTML] = (entry.text?.words ?? []).map { word in
            let (x, y) = (Self.number(word.x * Double(photo.thumbWidth), digits: 1), Self.number(word.y * Double(photo.thumbHeight), digits: 1))
            let (width, height) = (Self.number(word.width * Double(photo.thumbWidth), digits: 1),
                                   Self.number(word.height * Double(photo.thumbHeight), digits: 1))
            return "<rect class=\"word\" x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\"><title>\(word.text)</title></rect>"
        }
        return """
            <figure class="photo" id="photo-\(photo.id)" data-photo="\(photo.id)">
            <a class="frame" href="\(links.original(photo))" title="the original, upright">\
            <img src="\(links.thumbnail(photo))" width="\(photo.thumbWidth)" height="\(photo.thumbHeight)" alt="\(photo.originalName)">\
            <svg class="hits" viewBox="0 0 \(photo.thumbWidth) \(photo.thumbHeight)" preserveAspectRatio="none">\(boxes)\(wordBoxes)</svg></a>
            <figcaption>
            <p><strong>\(index + 1). \(photo.originalName)</strong></p>
            <p class="meta">\(photo.format.rawValue) \(photo.width)×\(photo.height) · \(ByteCountFormatter.string(fromByteCount: photo.byteSize, countStyle: .file))\(camera.isEmpty ? "" : " · \(camera)")</p>
            <p class="meta">taken \(photo.takenAt) <span class="source source-\(photo.timeSource.rawValue)">\(photo.timeSource.explanation)</span></p>
            <p class="meta">\(CaptureCard.rating(photo.rating)) \(Self.number(photo.quality)): sharpness \(Self.number(photo.sharpness)), \
            contrast \(Self.number(photo.contrast)), brightness \(Self.number(photo.brightness)), \
            decode \(photo.decodeConfidence.map { Self.number($0) } ?? "–")</p>
            \(read)
            \(Self.textSection(entry.text))
            \(context.canCorrect ? photoActions(photo, index: index, context) : "")
            </figcaption>
            </figure>

            """
    }

    /// What was read on a photo: its words (the boxes shown on the photo with the box ticked), why
    /// they could not be read, or that they are still to be.
    static func textSection(_ text: PhotoText?) -> HTML {
        guard let text else { return "<p class=\"meta none\">text not read yet</p>" }
        guard text.state == .read else { return "<p class=\"meta none\">text not read: \(text.reason ?? "given up")</p>" }
        guard !text.words.isEmpty else { return "<p class=\"meta none\">no text read</p>" }
        let lines: [HTML] = text.text.split(separator: "\n").map { "\($0)<br>" }
        return """
            <details class="text"><summary>Text on the photo (\(text.words.count) words)</summary>
            <label class="hint"><input type="checkbox" class="show-words"> show the words on the photo</label>
            <p class="words">\(lines)</p></details>
            """
    }

    private func photoActions(_ photo: Photo, index: Int, _ context: PageContext) -> HTML {
        let split: HTML = index > 0
            ? context.form("/captures/\(capture.id)/split", fields: "<input type=\"hidden\" name=\"photo\" value=\"\(photo.id)\">",
                           button: "Split here", classes: "split")
            : ""
        let move = context.form("/captures/\(capture.id)/move", fields: """
            <input type="hidden" name="photo" value="\(photo.id)">\
            <input type="text" name="to" placeholder="capture id" required size="10" aria-label="move to capture">
            """, button: "Move", classes: "move")
        return "<div class=\"actions\">\(split)\(move)</div>"
    }

    /// Setting the barcode, entering the product, merging another capture in, deleting.
    func actions(_ context: PageContext) -> HTML {
        let id = capture.id
        var rows: [HTML] = []
        let remove: HTML = capture.barcode == nil ? "" : context.form(
            "/captures/\(id)/barcode", fields: "<input type=\"hidden\" name=\"none\" value=\"1\">",
            button: "Remove", classes: "nobarcode")
        rows.append(Self.action("Barcode", context.form("/captures/\(id)/barcode", fields: """
            <input type="text" name="code" placeholder="EAN-13, UPC-A, EAN-8" required size="16" aria-label="barcode">
            """, button: capture.barcode == nil ? "Set" : "Change", classes: "barcode") + remove))
        if capture.gtin13 != nil {
            rows.append(Self.action("Product", context.form("/captures/\(id)/product", fields: """
                <input type="text" name="name" placeholder="name" required value="\(product?.name ?? nameFromPackage ?? "")" aria-label="product name">\
                <input type="text" name="brand" placeholder="brand" value="\(product?.brands ?? "")" aria-label="brand">
                """, button: "Save", classes: "product")))
        }
        rows.append(Self.action("Merge in", context.form("/captures/\(id)/merge", fields: """
            <input type="text" name="with" placeholder="capture ids" required size="16" aria-label="captures to merge in">
            """, button: "Merge", classes: "mergein")))
        rows.append(Self.action("", context.form("/captures/\(id)/delete", button: "Delete capture",
                                                 confirm: "Delete this capture? Its files are kept until ingest purge; Undo brings it back.",
                                                 classes: "delete")))
        return "<section class=\"corrections\"><h2>Correct</h2>\(rows)</section>"
    }

    /// One line of the corrections: a label and its forms.
    private static func action(_ label: String, _ forms: HTML) -> HTML {
        "<div class=\"action\"><span class=\"label\">\(label)</span>\(forms)</div>"
    }

    /// The edits that touched the capture, each standing one with its undo.
    func history(_ context: PageContext) -> HTML {
        guard !edits.isEmpty else { return "" }
        let items: [HTML] = edits.map { edit in
            "<li>\(EditsPage.describe(edit, context))</li>"
        }
        return "<h2>History</h2>\n<ul class=\"history\">\(items)</ul>"
    }
}
