/// The words read on one photo, or why they could not be: a row of `photo_text` with its
/// `photo_word`s.
package struct PhotoText: Sendable, Hashable, Codable {
    package enum State: String, Sendable, Codable { case read, givenUp = "given-up" }

    /// One word: its text, line and block in reading order, its box as fractions (0…1) of the
    /// upright photo's width and height, and Tesseract's confidence (0…100).
    package struct Word: Sendable, Hashable, Codable {
        package var text: String
        package var line: Int
        package var block: Int
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double
        package var confidence: Double

        package init(text: String, line: Int, block: Int, x: Double, y: Double, width: Double, height: Double,
                     confidence: Double) {
            self.text = text
            self.line = line
            self.block = block
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.confidence = confidence
        }
    }

    package var photoId: String
    package var state: State
    /// Why the words were given up (`givenUp`).
    package var reason: String?
    /// The languages it was read in, as Tesseract names them, `+` between (`eng+fra+deu`).
    package var languages: String
    /// Right angles the upright photo was turned clockwise to read it.
    package var quarterTurns: Int
    package var words: [Word]
    /// Its most prominent line(s) (`PackageHeadline`): a name from the package, unless it is a
    /// nutrition table.
    package var headline: String?
    /// The nutrition table read on it.
    package var nutrition: LabelNutrition?
    /// The processor time the reading took.
    package var seconds: Double
    /// When it was read (ISO 8601, UTC).
    package var readAt: String

    package init(photoId: String, state: State, reason: String? = nil, languages: String, quarterTurns: Int = 0,
                 words: [Word] = [], headline: String? = nil, nutrition: LabelNutrition? = nil, seconds: Double,
                 readAt: String) {
        self.photoId = photoId
        self.state = state
        self.reason = reason
        self.languages = languages
        self.quarterTurns = quarterTurns
        self.words = words
        self.headline = headline
        self.nutrition = nutrition
        self.seconds = seconds
        self.readAt = readAt
    }

    /// The words in reading order: a space between the words of a line, a line break between lines.
    package var text: String {
        var lines: [String] = []
        var previous: Int?
        for word in words {
            if word.line == previous { lines[lines.count - 1] += " " + word.text } else { lines.append(word.text) }
            previous = word.line
        }
        return lines.joined(separator: "\n")
    }
}
