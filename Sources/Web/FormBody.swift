import Foundation

/// A form's fields as `application/x-www-form-urlencoded` sends them: `name=value` pairs joined
/// by `&`, `+` for a space, percent-escapes. A name may come more than once (ticked captures).
struct FormBody {
    let fields: [(name: String, value: String)]

    init(_ text: String) {
        fields = text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { return nil }
            return (name, parts.count > 1 ? Self.decode(parts[1]) ?? "" : "")
        }
    }

    /// The first value of `name`, trimmed; nil when absent or empty.
    func value(_ name: String) -> String? {
        guard let value = fields.first(where: { $0.name == name })?.value.trimmingCharacters(in: .whitespacesAndNewlines),
              !value.isEmpty else { return nil }
        return value
    }

    /// Every value of `name`, in order, empty ones left out.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value).filter { !$0.isEmpty }
    }

    /// `+` as a space, `%XX` as its byte; nil when the escapes are broken or the bytes not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
