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

    /// Where each field starts and ends in `record`, and whether it was quoted: one growable
    /// array of spans, written hundreds of times a line.
    private var spans: [Span] = []
    private(set) var count = 0
    private var record = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    private struct Span {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    /// Splits `record` (valid until the fields are read) at its tabs; with `quotes` false, a leading
    /// quote is an ordinary character. A quote that does not close right before a tab or the end
    /// does not quote its field (`"Bio" milk` is text as it stands).
    mutating func split(_ record: UnsafeBufferPointer<UInt8>, quotes: Bool = true) -> Split {
        self.record = record
        count = 0
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

    private mutating func append(_ start: Int, _ end: Int, quoted: Bool) {
        let span = Span(start: start, end: end, quoted: quoted)
        if count < spans.count { spans[count] = span } else { spans.append(span) }
        count += 1
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
        let span = spans[index]
        guard span.start < span.end else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: record[span.start ..< span.end])
        guard span.quoted else { return try Self.text(bytes) }
        var unquoted: [UInt8] = []
        unquoted.reserveCapacity(bytes.count)
        var previousWasQuote = false
        for byte in bytes {
            if byte == UInt8(ascii: "\""), previousWasQuote { previousWasQuote = false; continue }
            previousWasQuote = byte == UInt8(ascii: "\"")
            unquoted.append(byte)
        }
        return try unquoted.withUnsafeBufferPointer(Self.text)
    }

    /// `bytes` as text, when they are UTF-8. Decoding replaces what is not UTF-8, so text that does
    /// not encode back to the same bytes was not (ASCII, most of a dump, needs no check).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(bytes) else { throw Malformed("not UTF-8") }
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
