import Foundation

/// One record of a tab-separated dump split into fields without copying its bytes.
///
/// Fields are not quoted in general (Open Food Facts strips tabs and line ends from values), but a
/// field that starts with `"` is read as RFC 4180 quoted — `""` for a quote — and may hold tabs and
/// line ends; its record then spans several lines, which the caller joins when `split` says
/// `.openQuote`.
struct TabSeparatedFields {
    enum Split {
        case complete
        case openQuote
    }

    /// Why a record cannot be used: `kind` counts it in the summary, `detail` says where.
    struct Malformed: Error, CustomStringConvertible {
        var kind: String
        var detail: String?

        init(_ kind: String, _ detail: String? = nil) {
            self.kind = kind
            self.detail = detail
        }

        var description: String { detail.map { "\(kind): \($0)" } ?? kind }
    }

    private var starts: [Int] = []
    private var ends: [Int] = []
    private var quoted: [Bool] = []
    private var record = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    var count: Int { starts.count }

    /// Splits `record` (valid until the fields are read) at its tabs; with `quotes` false, a leading
    /// quote is an ordinary character. A quote that does not close right before a tab or the end
    /// does not quote its field (`"Bio" milk` is text as it stands).
    mutating func split(_ record: UnsafeBufferPointer<UInt8>, quotes: Bool = true) -> Split {
        self.record = record
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        quoted.removeAll(keepingCapacity: true)
        var position = 0
        while true {
            if quotes, position < record.count, record[position] == UInt8(ascii: "\"") {
                guard let close = Self.closingQuote(in: record, after: position) else { return .openQuote }
                if close + 1 == record.count || record[close + 1] == 9 {
                    append(position + 1, close, quoted: true)
                    guard close + 1 < record.count else { return .complete }
                    position = close + 2
                    continue
                }
            }
            guard let tab = Self.tab(in: record, from: position) else {
                append(position, record.count, quoted: false)
                return .complete
            }
            append(position, tab, quoted: false)
            position = tab + 1
        }
    }

    private mutating func append(_ start: Int, _ end: Int, quoted isQuoted: Bool) {
        starts.append(start)
        ends.append(end)
        quoted.append(isQuoted)
    }

    private static func tab(in record: UnsafeBufferPointer<UInt8>, from position: Int) -> Int? {
        guard position < record.count, let base = record.baseAddress,
              let hit = memchr(base + position, 9, record.count - position) else { return nil }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// The quote that closes the field opened at `open`, skipping doubled quotes.
    private static func closingQuote(in record: UnsafeBufferPointer<UInt8>, after open: Int) -> Int? {
        var position = open + 1
        while position < record.count {
            if record[position] == UInt8(ascii: "\"") {
                guard position + 1 < record.count, record[position + 1] == UInt8(ascii: "\"") else { return position }
                position += 1
            }
            position += 1
        }
        return nil
    }

    /// Field `index` as text; nil when it is empty. Throws `Malformed` when it is not UTF-8.
    func string(_ index: Int) throws -> String? {
        guard starts[index] < ends[index] else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: record[starts[index] ..< ends[index]])
        guard quoted[index] else {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw Malformed("not UTF-8") }
            return text
        }
        var unquoted: [UInt8] = []
        unquoted.reserveCapacity(bytes.count)
        var previousWasQuote = false
        for byte in bytes {
            if byte == UInt8(ascii: "\""), previousWasQuote { previousWasQuote = false; continue }
            previousWasQuote = byte == UInt8(ascii: "\"")
            unquoted.append(byte)
        }
        guard let text = String(validating: unquoted, as: UTF8.self) else { throw Malformed("not UTF-8") }
        return text
    }

    /// Field `index` as a finite number (`246`, `246.0`, `1e3`); nil when it is empty. Throws
    /// `Malformed` when it is something else.
    func number(_ index: Int) throws -> Double? {
        guard let text = try string(index) else { return nil }
        guard let value = Double(text), value.isFinite else { throw Malformed("not a number", "'\(text.prefix(40))'") }
        return value
    }
}
