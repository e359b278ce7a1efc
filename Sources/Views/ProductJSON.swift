import Catalog
import Foundation

/// A capture's `product` in `list --json` and `show --json`, and what `products show --json` prints.
public struct ProductJSON: Encodable, Sendable {
    public var gtin14: String
    public var code: String
    @NullWhenAbsent public var name: String?
    @NullWhenAbsent public var brands: String?
    @NullWhenAbsent public var quantity: String?
    @NullWhenAbsent public var servingSize: String?
    @NullWhenAbsent public var nutriscoreGrade: String?
    @NullWhenAbsent public var novaGroup: Int?
    @NullWhenAbsent public var categories: String?
    /// Per 100 g.
    public var nutrition: Nutrition
    /// ISO 8601 UTC.
    @NullWhenAbsent public var lastModified: String?
    /// `off` or `manual`.
    public var source: String

    public struct Nutrition: Encodable, Sendable {
        @NullWhenAbsent public var energyKcal: Double?
        @NullWhenAbsent public var fat: Double?
        @NullWhenAbsent public var saturatedFat: Double?
        @NullWhenAbsent public var carbohydrates: Double?
        @NullWhenAbsent public var sugars: Double?
        @NullWhenAbsent public var fiber: Double?
        @NullWhenAbsent public var proteins: Double?
        @NullWhenAbsent public var salt: Double?

        public init(_ product: Product) {
            energyKcal = product.energyKcal
            fat = product.fat
            saturatedFat = product.saturatedFat
            carbohydrates = product.carbohydrates
            sugars = product.sugars
            fiber = product.fiber
            proteins = product.proteins
            salt = product.salt
        }
    }

    public init(_ product: Product) {
        gtin14 = product.aliasOf ?? product.gtin14
        code = product.code
        name = product.name
        brands = product.brands
        quantity = product.quantity
        servingSize = product.servingSize
        nutriscoreGrade = product.nutriscoreGrade
        novaGroup = product.novaGroup
        categories = product.categories
        nutrition = Nutrition(product)
        lastModified = product.lastModified.map {
            ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0)))
        }
        source = product.source.rawValue
    }
}
