import Foundation

/// The keys that one JSON object of a text gives twice, with the line of the second: JSON parsers
/// keep the last silently, so a setting written twice would take effect with no word. Reads valid
/// JSON only (the caller has parsed it already): strings, and the braces, brackets, colons and
/// commas around them.
enum DuplicateKeys {
    struct Found: Equatable {
        var key: String
        var line: Int
    }

    static func find(in bytes: [UInt8]) -> [Found] {
        var found: [Found] = []
        // One entry per open object or array: the keys seen (nil for an array).
        var open: [Set<String>?] = []
        var line = 1
        var index = 0
        var lastString: (text: String, line: Int)?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"):
                open.append([])
            case UInt8(ascii: "["):
                open.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
            case UInt8(ascii: ":"):
                if let key = lastString, let keys = open.last, var seen = keys {
                    if !seen.insert(key.text).inserted { found.append(Found(key: key.text, line: key.line)) }
                    open[open.count - 1] = seen
                }
            case UInt8(ascii: "\""):
                let start = line
                var text: [UInt8] = []
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        text.append(bytes[index])
                        index += 1
                    }
                    text.append(bytes[index])
                    index += 1
                }
                lastString = (unescaped(text), start)
            default:
                break
            }
            index += 1
        }
        return found
    }

    /// A string token's text with its escapes read (`\u0069nbox` is `inbox`).
    private static func unescaped(_ raw: [UInt8]) -> String {
        let quoted = Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])
        return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String
            ?? String(decoding: raw, as: UTF8.self)
    }
}
