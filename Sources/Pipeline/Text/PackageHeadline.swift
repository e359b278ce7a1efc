package import Catalog

/// The most prominent line of a photo's words — the largest letters read with confidence, as a
/// package's name is printed — with the line beside it when that is printed as large (a brand
/// above a product's name). Lines of digits (a barcode's) are not names.
package enum PackageHeadline {
    /// Lines read less surely than this (mean word confidence, 0…100) are not taken for a name.
    static let minimumConfidence = 75.0
    /// A neighbouring line joins the headline when its letters are at least this share as large.
    static let neighbourSize = 0.7

    /// The headline of `words` (one photo's, in reading order) on a photo `width` × `height`
    /// pixels, upright; nil when no line qualifies.
    package static func of(_ words: [PhotoText.Word], width: Int, height: Int) -> String? {
        let lines = Dictionary(grouping: words, by: \.line).sorted { $0.key < $1.key }.compactMap { line, words in
            Line(words: words, width: Double(width), height: Double(height))
        }
        guard let top = lines.indices.max(by: { lines[$0].letterSize < lines[$1].letterSize }) else { return nil }
        var chosen = [top]
        for neighbour in [top - 1, top + 1] where lines.indices.contains(neighbour) {
            let line = lines[neighbour]
            if line.block == lines[top].block, line.letterSize >= neighbourSize * lines[top].letterSize { chosen.append(neighbour) }
        }
        return chosen.sorted().map { lines[$0].text }.joined(separator: " ")
    }

    /// A line that could be a name: its text, its block, and the size of its letters in pixels.
    private struct Line {
        var text: String
        var block: Int
        var letterSize: Double

        init?(words: [PhotoText.Word], width: Double, height: Double) {
            let text = words.map(\.text).joined(separator: " ")
            let letters = text.filter(\.isLetter).count
            let digits = text.filter(\.isNumber).count
            let confidence = words.map(\.confidence).reduce(0, +) / Double(words.count)
            guard letters >= 3, Double(letters) >= 0.6 * Double(letters + digits), confidence >= PackageHeadline.minimumConfidence
            else { return nil }
            // A word's letters are as tall as its box's short side: its height across the line,
            // its width where the line runs up or down the photo.
            let sizes = words.filter { $0.text.count >= 3 }.map { min($0.width * width, $0.height * height) }.sorted()
            guard !sizes.isEmpty else { return nil }
            self.text = text
            block = words[0].block
            letterSize = sizes[sizes.count / 2]
        }
    }
}
