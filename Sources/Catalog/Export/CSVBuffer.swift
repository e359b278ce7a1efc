/// CSV rows as UTF-8 bytes, taken in chunks: fields quoted per RFC 4180 when they hold a comma, a
/// quote or a line break (quotes doubled), lines ending in LF.
struct CSVBuffer {
    private(set) var bytes: [UInt8] = []
    /// The size from which the bytes should be taken.
    let chunkSize: Int
    /// Whether a field that a spreadsheet would run as a formula is written with a `'` before it.
    let neutralisesFormulas: Bool

    init(chunkSize: Int, neutralisesFormulas: Bool = true) {
        self.chunkSize = chunkSize
        self.neutralisesFormulas = neutralisesFormulas
        bytes.reserveCapacity(chunkSize + 4096)
    }

    /// What a field starts with when a spreadsheet takes it for a formula (`=`, `+`, `-`, `@`, and a
    /// tab or carriage return before one), as OWASP's advice on CSV injection lists them.
    static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13]

    /// True when the buffer holds a chunk's worth.
    var isFull: Bool { bytes.count >= chunkSize }

    mutating func append(row fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(field: field)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Empties the buffer (keeping its capacity).
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func append(field: String) {
        guard neutralisesFormulas, let first = field.utf8.first, Self.formulaStarts.contains(first) else {
            return append(quoting: field)
        }
        append(quoting: "'" + field)
    }

    private mutating func append(quoting field: String) {
        let utf8 = field.utf8
        let needsQuotes = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        guard needsQuotes else { return bytes.append(contentsOf: utf8) }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
