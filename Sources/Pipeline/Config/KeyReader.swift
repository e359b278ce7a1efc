import Catalog
import Foundation

/// Typed access to a JSON object's keys, with errors that name the key.
struct KeyReader {
    var file: String
    var keys: [String: Any]

    func refuseUnknown(_ known: Set<String>) throws {
        if let unknown = keys.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(unknown, "unknown key (known keys: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ key: String) throws -> String? {
        guard let raw = keys[key] else { return nil }
        guard let value = raw as? String, !value.isEmpty else { throw fail(key, "must be a non-empty string") }
        return value
    }

    func strings(_ key: String) throws -> [String]? {
        guard let raw = keys[key] else { return nil }
        guard let values = raw as? [String], !values.isEmpty else {
            throw fail(key, "must be a non-empty list of strings")
        }
        return values
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let raw = keys[key] else { return nil }
        guard let number = raw as? NSNumber, !isBoolean(number) else { throw fail(key, "must be a number") }
        let value = number.doubleValue
        guard range.contains(value) else {
            throw fail(key, "must be \(format(range.lowerBound))…\(format(range.upperBound)), got \(format(value))")
        }
        return value
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try number(key, in: Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
        guard value == value.rounded() else { throw fail(key, "must be a whole number, got \(format(value))") }
        return Int(value)
    }

    func choice<T: RawRepresentable>(_ key: String, _: T.Type) throws -> T? where T.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = T(rawValue: text) else { throw fail(key, "unknown value \"\(text)\"") }
        return value
    }

    private func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private func fail(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, message: "\(key) \(message)")
    }
}
