import Foundation

/// A multipart part's `Content-Disposition: form-data; name="…"; filename="…"` (RFC 7578): the
/// field's name and, for a file, the name the client gave it.
struct ContentDisposition: Equatable {
    var name: String?
    var filename: String?

    init(name: String?, filename: String?) {
        self.name = name
        self.filename = filename
    }

    /// Reads the header's value; `filename*=UTF-8''…` (RFC 5987) wins over `filename`.
    init(_ value: String) {
        var parameters: [String: String] = [:]
        for item in Self.items(value).dropFirst() {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let key = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[key] = Self.unquoted(item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
        name = parameters["name"]
        filename = parameters["filename"]
        if let extended = parameters["filename*"], let quote = extended.range(of: "''"),
           extended[..<quote.lowerBound].lowercased() == "utf-8",
           let decoded = extended[quote.upperBound...].removingPercentEncoding {
            filename = decoded
        }
    }

    /// The `;`-separated items, a `;` inside quotes kept.
    private static func items(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        items.append(current)
        return items
    }

    /// A quoted-string's text (backslash escapes undone), or a token as it is.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if character == "\\" && !escaped {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
