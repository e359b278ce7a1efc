import Vocabulary

/// What a product is, from an Open Food Facts dump or typed in by hand: one row per GTIN-14.
///
/// Nutrition is per 100 g (or 100 ml), as the dump gives it; nil where the source has no value.
/// An 8-digit code may be an EAN-8 or a UPC-E: its product is stored under the EAN-8's GTIN-14 and
/// copied under the UPC-E's expansion, the copy naming the first in `aliasOf`, so that a capture
/// finds its product with one key whatever the code's form.
public struct Product: Codable, Hashable, Sendable {
    /// The code as 14 digits, left-padded with zeros: the key captures are matched on.
    public var gtin14: String
    /// The code as the source gave it.
    public var code: String
    public var name: String?
    public var brands: String?
    public var quantity: String?
    public var servingSize: String?
    /// `a`…`e`.
    public var nutriscoreGrade: String?
    /// 1…4.
    public var novaGroup: Int?
    public var categories: String?
    public var energyKcal: Double?
    public var fat: Double?
    public var saturatedFat: Double?
    public var carbohydrates: Double?
    public var sugars: Double?
    public var fiber: Double?
    public var proteins: Double?
    public var salt: Double?
    /// When the dump's row was last modified, seconds since 1970.
    public var lastModified: Int64?
    public var source: ProductSource
    /// The GTIN-14 of the row this one copies under a second reading of an 8-digit code; nil for a
    /// product's own row.
    public var aliasOf: String?

    public init(gtin14: String, code: String, name: String? = nil, brands: String? = nil, quantity: String? = nil,
                source: ProductSource) {
        self.gtin14 = gtin14
        self.code = code
        self.name = name
        self.brands = brands
        self.quantity = quantity
        self.source = source
    }

    /// The same product under another key, naming this row as its original.
    public func alias(gtin14 key: String) -> Product {
        var copy = self
        copy.gtin14 = key
        copy.aliasOf = gtin14
        return copy
    }
}

extension Capture {
    /// What a capture without product data is called: `Product (2026-11-21 14:03)`, its capture time
    /// to the minute, as the capture's own clock read it.
    public var fallbackProductName: String { Self.fallbackProductName(capturedAt: capturedAt) }

    /// The fallback name for a capture taken at `capturedAt` (ISO 8601).
    /// (Sliced, not `replacingOccurrences`: the export names every capture without product, and
    /// Foundation's search took a fifth of its time.)
    public static func fallbackProductName(capturedAt: String) -> String {
        "Product (" + capturedAt.prefix(10) + " " + capturedAt.dropFirst(11).prefix(5) + ")"
    }
}
