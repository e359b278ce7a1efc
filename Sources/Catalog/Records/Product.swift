import Vocabulary

/// What a product is, from an Open Food Facts dump or typed in by hand: one row per GTIN-14.
///
/// Nutrition is per 100 g (or 100 ml), as the dump gives it; nil where the source has no value.
/// An 8-digit code may be an EAN-8 or a UPC-E: its product is stored under the EAN-8's GTIN-14 and
/// copied under the UPC-E's expansion, the copy naming the first in `aliasOf`, so that a capture
/// finds its product with one key whatever the code's form.
package struct Product: Codable, Hashable, Sendable {
    /// The code as 14 digits, left-padded with zeros: the key captures are matched on.
    package var gtin14: String
    /// The code as the source gave it.
    package var code: String
    package var name: String?
    package var brands: String?
    package var quantity: String?
    package var servingSize: String?
    /// `a`…`e`.
    package var nutriscoreGrade: String?
    /// 1…4.
    package var novaGroup: Int?
    package var categories: String?
    package var energyKcal: Double?
    package var fat: Double?
    package var saturatedFat: Double?
    package var carbohydrates: Double?
    package var sugars: Double?
    package var fiber: Double?
    package var proteins: Double?
    package var salt: Double?
    /// When the dump's row was last modified, seconds since 1970.
    package var lastModified: Int64?
    package var source: ProductSource
    /// The GTIN-14 of the row this one copies under a second reading of an 8-digit code; nil for a
    /// product's own row.
    package var aliasOf: String?

    package init(gtin14: String, code: String, name: String? = nil, brands: String? = nil, quantity: String? = nil,
                source: ProductSource) {
        self.gtin14 = gtin14
        self.code = code
        self.name = name
        self.brands = brands
        self.quantity = quantity
        self.source = source
    }

    /// The same product under another key, naming this row as its original.
    package func alias(gtin14 key: String) -> Product {
        var copy = self
        copy.gtin14 = key
        copy.aliasOf = gtin14
        return copy
    }
}

extension Capture {
    /// What a capture without product data is called: `Product (2026-11-21 14:03)`, its capture time
    /// to the minute, as the capture's own clock read it.
    package var fallbackProductName: String { Self.fallbackProductName(capturedAt: capturedAt) }

    /// The fallback name for a capture taken at `capturedAt` (ISO 8601).
    /// (Sliced, not `replacingOccurrences`: the export names every capture without product, and
    /// Foundation's search took a fifth of its time.)
    package static func fallbackProductName(capturedAt: String) -> String {
        "Product (" + capturedAt.prefix(10) + " " + capturedAt.dropFirst(11).prefix(5) + ")"
    }
}
