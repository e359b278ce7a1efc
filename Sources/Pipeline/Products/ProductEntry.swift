import Foundation
package import Catalog
import Vocabulary

/// A product typed in by a person — `ingest products set`, or the capture page of `ingest serve` —
/// checked and stored as a manual row, which imports keep unless told to replace it.
package struct ProductEntry: Sendable {
    /// The barcode's digits, in any form `ProductCode` reads.
    package var code: String
    package var name: String
    /// The brand, or brands separated by commas; nil keeps the stored one.
    package var brand: String?
    /// The quantity as printed (`400 g`); nil keeps the stored one.
    package var quantity: String?
    /// Energy in kcal per 100 g; nil keeps the stored value.
    package var kcal: Double?

    package init(code: String, name: String, brand: String? = nil, quantity: String? = nil, kcal: Double? = nil) {
        self.code = code
        self.name = name
        self.brand = brand
        self.quantity = quantity
        self.kcal = kcal
    }

    /// The GTIN-14 keys of the code, most likely first. Throws `ProductEntryError` for a code that is
    /// not a GTIN, an empty name or energy out of range.
    package func validated() throws(ProductEntryError) -> [String] {
        guard let keys = ProductCode.keys(for: code) else { throw .notAGTIN(code) }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyName }
        if let kcal, !(0 ... 10_000).contains(kcal) { throw .kcalOutOfRange(kcal) }
        return keys
    }

    /// Stores the product as a manual row, keeping the values not given from the row it corrects
    /// (a copy under an 8-digit code's second reading is replaced, not corrected). Returns the row.
    package func store(in catalogue: Catalogue) throws -> Product {
        let keys = try validated()
        let existing = try catalogue.product(gtin14Keys: keys)
        var product = existing.flatMap { $0.aliasOf == nil ? $0 : nil } ?? Product(gtin14: keys[0], code: code, source: .manual)
        product.source = .manual
        product.name = name
        if let brand { product.brands = brand }
        if let quantity { product.quantity = quantity }
        if let kcal { product.energyKcal = kcal }
        let copies = keys.filter { $0 != product.gtin14 }.map { product.alias(gtin14: $0) }
        _ = try catalogue.upsertProducts([product] + copies, replaceManual: true)
        return product
    }
}

/// Why a product typed by hand was refused; nothing was stored.
package enum ProductEntryError: Error, CustomStringConvertible, Equatable, Sendable {
    case notAGTIN(String)
    case emptyName
    case kcalOutOfRange(Double)

    package var description: String {
        switch self {
        case .notAGTIN(let code):
            return "'\(code)' is not a GTIN: give the barcode's digits (8 to 14 of them, leading zeros allowed)."
        case .emptyName:
            return "the name must not be empty."
        case .kcalOutOfRange(let kcal):
            return "energy must be 0…10000 kcal, got \(kcal)."
        }
    }
}
