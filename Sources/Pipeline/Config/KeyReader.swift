import Foundation

/// Typed access to a JSON object's keys. A key whose value is wrong reads as absent and adds a
/// problem naming the key, so that one pass finds every problem of the file.
final class KeyReader {
    let keys: [String: Any]
    /// The problems found so far, each starting with its key.
    private(set) var problems: [String] = []

    init(keys: [String: Any]) {
        self.keys = keys
    }

    /// Adds a problem for `key`.
    func report(_ key: String, _ message: String) {
        problems.append("\(key) \(message)")
    }

    /// Adds a problem for every key not in `known`.
    func refuseUnknown(_ known: Set<String>) {
        for unknown in keys.keys.sorted() where !known.contains(unknown) {
            report(unknown, "unknown key (known keys: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ key: String) -> String? {
        guard let raw = keys[key] else { return nil }
        guard let value = raw as? String, !value.isEmpty else { return fail(key, "must be a non-empty string") }
        return value
    }

    func strings(_ key: String) -> [String]? {
        guard let raw = keys[key] else { return nil }
        guard let values = raw as? [String], !values.isEmpty else {
            return fail(key, "must be a non-empty list of strings")
        }
        return values
    }

    func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard let raw = keys[key] else { return nil }
        guard let number = raw as? NSNumber, !isBoolean(number) else { return fail(key, "must be a number") }
        let value = number.doubleValue
        guard range.contains(value) else {
            return fail(key, "must be \(format(range.lowerBound))…\(format(range.upperBound)), got \(format(value))")
        }
        return value
    }

    func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = number(key, in: Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
        guard value == value.rounded() else { return fail(key, "must be a whole number, got \(format(value))") }
        return Int(value)
    }

    func choice<T: RawRepresentable>(_ key: String, _: T.Type) -> T? where T.RawValue == String {
        guard let text = string(key) else { return nil }
        guard let value = T(rawValue: text) else { return fail(key, "unknown value \"\(text)\"") }
        return value
    }

    private func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Reports the problem; nil, the value of a key that is wrong.
    private func fail<T>(_ key: String, _ message: String) -> T? {
        report(key, message)
        return nil
    }
}
