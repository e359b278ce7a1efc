import Catalog
import Foundation

/// The JSONL dump of Open Food Facts (`openfoodfacts-products.jsonl`): one product object per line,
/// nutrition under `nutriments` with the CSV's `*_100g` keys. Numbers may be written as strings;
/// a name may be only in a language's field (`product_name_fr`).
final class OFFJSONLFormat: DumpFormat {
    private var object: [String: Any] = [:]

    /// True when `line` is a JSON object: how the format is told from the CSV export.
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        (try? parse(line)) != nil
    }

    func load(_ line: UnsafeBufferPointer<UInt8>, reader: LineReader) throws {
        object = try Self.parse(line)
    }

    private static func parse(_ line: UnsafeBufferPointer<UInt8>) throws -> [String: Any] {
        guard line.first == UInt8(ascii: "{"),
              let object = try? JSONSerialization.jsonObject(with: Data(buffer: line)) as? [String: Any] else {
            throw TabSeparatedFields.Malformed("not a JSON object")
        }
        return object
    }

    func code() throws -> String? {
        try Self.text(object["code"])
    }

    func fill(_ product: inout Product) throws {
        try OFFField.setTexts(of: &product) { field in
            try OFFField.texts[field].lazy.compactMap { try Self.text(self.object[$0]) }.first
        }
        if product.name == nil {
            product.name = try object.keys.sorted().filter { $0.hasPrefix("product_name_") }
                .lazy.compactMap { try Self.text(self.object[$0]) }.first
        }
        if product.categories == nil, let tags = object["categories_tags"] as? [String], !tags.isEmpty {
            product.categories = tags.joined(separator: ",")
        }
        let nutriments = object["nutriments"] as? [String: Any] ?? [:]
        try OFFField.setNutrients(of: &product) { nutrient in
            try Self.number(nutriments[OFFField.nutrients[nutrient]], OFFField.nutrients[nutrient])
        }
        product.novaGroup = OFFField.novaGroup(try Self.number(object["nova_group"], "nova_group"))
        product.lastModified = OFFField.time(try Self.number(object["last_modified_t"], "last_modified_t"))
    }

    /// A string, or a number written as one; nil for an absent, null or empty value.
    private static func text(_ value: Any?) throws -> String? {
        switch value {
        case let text as String: return text.isEmpty ? nil : text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    /// A finite number, or a string holding one; nil for an absent, null or empty value.
    private static func number(_ value: Any?, _ name: String) throws -> Double? {
        switch value {
        case let number as NSNumber where number.doubleValue.isFinite:
            return number.doubleValue
        case let text as String where text.isEmpty:
            return nil
        case let text as String:
            guard let number = Double(text), number.isFinite else {
                throw TabSeparatedFields.Malformed("not a number", "\(name): '\(text.prefix(40))'")
            }
            return number
        case nil, is NSNull:
            return nil
        default:
            throw TabSeparatedFields.Malformed("not a number", name)
        }
    }
}
