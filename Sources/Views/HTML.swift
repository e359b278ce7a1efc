/// A piece of HTML. Text interpolated into it is escaped unless it is `HTML` itself, so a page is
/// safe by default: a set name, a note or a product name cannot open a tag or leave an attribute.
package struct HTML: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    /// The markup.
    package private(set) var rendered: String

    package init(stringLiteral value: String) {
        rendered = value
    }

    package init(stringInterpolation: StringInterpolation) {
        rendered = stringInterpolation.rendered
    }

    /// Markup taken as it is: only for text that is markup already.
    init(trusted markup: String) {
        rendered = markup
    }

    package var description: String { rendered }

    /// One piece after the other.
    static func + (lhs: HTML, rhs: HTML) -> HTML {
        HTML(trusted: lhs.rendered + rhs.rendered)
    }

    /// `parts` one after the other.
    static func joined(_ parts: some Sequence<HTML>, separator: HTML = "") -> HTML {
        HTML(trusted: parts.map(\.rendered).joined(separator: separator.rendered))
    }

    /// Text for an element's content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var rendered = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            rendered += literal
        }

        /// Text, escaped.
        package mutating func appendInterpolation(_ text: String) {
            rendered += HTML.escape(text)
        }

        /// Text, escaped.
        package mutating func appendInterpolation(_ text: Substring) {
            rendered += HTML.escape(String(text))
        }

        /// Text, escaped; nothing for nil.
        package mutating func appendInterpolation(_ text: String?) {
            if let text { rendered += HTML.escape(text) }
        }

        package mutating func appendInterpolation(_ number: Int) {
            rendered += String(number)
        }

        package mutating func appendInterpolation(_ number: Int64) {
            rendered += String(number)
        }

        /// Markup, as it is.
        package mutating func appendInterpolation(_ html: HTML) {
            rendered += html.rendered
        }

        /// Markup, as it is; nothing for nil.
        package mutating func appendInterpolation(_ html: HTML?) {
            if let html { rendered += html.rendered }
        }

        /// Pieces of markup one after the other.
        package mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { rendered += part.rendered }
        }
    }
}
