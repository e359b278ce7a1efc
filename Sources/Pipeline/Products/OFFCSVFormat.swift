import Catalog
import Foundation

/// The CSV export of Open Food Facts (`en.openfoodfacts.org.products.csv`): UTF-8, tab-separated,
/// one header row naming ~200 columns. Columns are found by name once, from the header; only the
/// ~20 the catalogue keeps are ever turned into text; the others are only counted.
final class OFFCSVFormat: DumpFormat {
    /// Records longer than this (joined quoted lines) are malformed.
    private let maximumRecord: Int
    private let fieldCount: Int
    private let codeColumn: Int
    /// Each text property's columns, the first with a value wins, in `OFFField.texts` order.
    private let texts: [[Int]]
    /// Each nutrient's column, in `OFFField.nutrients` order.
    private let nutrients: [Int?]
    private let novaColumn: Int?
    private let modifiedColumn: Int?
    private var fields = TabSeparatedFields()
    /// A record whose quoted field spans lines, joined here (`joinedCount` bytes of `maximumRecord`),
    /// where its fields point until the next record.
    private let joined: UnsafeMutablePointer<UInt8>
    private var joinedCount = 0

    /// The format the header line describes, or nil when it is not one: no `code` column, fewer than
    /// two columns, or not UTF-8.
    init?(header: UnsafeBufferPointer<UInt8>, maximumRecord: Int) {
        var fields = TabSeparatedFields()
        guard fields.split(header) == .complete, fields.count > 1 else { return nil }
        var columns: [String: Int] = [:]
        for index in (0 ..< fields.count).reversed() {
            guard let name = try? fields.string(index) else { continue }
            columns[name] = index
        }
        guard let code = columns["code"] else { return nil }
        self.maximumRecord = maximumRecord
        fieldCount = fields.count
        codeColumn = code
        texts = OFFField.texts.map { names in names.compactMap { columns[$0] } }
        nutrients = OFFField.nutrients.map { columns[$0] }
        novaColumn = columns["nova_group"]
        modifiedColumn = columns["last_modified_t"]
        joined = .allocate(capacity: maximumRecord)
    }

    deinit {
        joined.deallocate()
    }

    func load(_ line: UnsafeBufferPointer<UInt8>, reader: LineReader) throws {
        // A field that opens a quote it does not close on its line either spans lines or is text
        // that starts with a quote: the field count tells which.
        if fields.split(line) == .openQuote, fields.split(line, quotes: false) == .complete, fields.count != fieldCount {
            try joinLines(from: line, reader: reader)
        }
        guard fields.count == fieldCount else {
            throw TabSeparatedFields.Malformed("wrong field count", "\(fields.count) fields where the header has \(fieldCount)")
        }
    }

    /// Joins `first` with the lines after it until the quoted field closes.
    private func joinLines(from first: UnsafeBufferPointer<UInt8>, reader: LineReader) throws {
        joinedCount = 0
        var line = first
        while true {
            guard joinedCount + line.count + 1 < maximumRecord else {
                throw TabSeparatedFields.Malformed("unclosed quoted field", "longer than \(maximumRecord >> 20) MB")
            }
            if joinedCount > 0 { joined[joinedCount - 1] = 10 }
            if let base = line.baseAddress { (joined + joinedCount).update(from: base, count: line.count) }
            joinedCount += line.count + 1
            if fields.split(UnsafeBufferPointer(start: joined, count: joinedCount - 1)) == .complete { return }
            guard case let .text(next)? = try reader.next() else {
                throw TabSeparatedFields.Malformed("unclosed quoted field")
            }
            line = next
        }
    }

    func code() throws -> String? {
        try fields.string(codeColumn)
    }

    func fill(_ product: inout Product) throws {
        try OFFField.setTexts(of: &product) { field in
            for column in texts[field] {
                if let text = try fields.string(column) { return text }
            }
            return nil
        }
        try OFFField.setNutrients(of: &product) { nutrient in try nutrients[nutrient].flatMap(fields.number) }
        product.novaGroup = try novaColumn.flatMap { OFFField.novaGroup(try fields.number($0)) }
        product.lastModified = try modifiedColumn.flatMap { OFFField.time(try fields.number($0)) }
    }
}
