package import Catalog
import Foundation
import Vocabulary

/// A capture's `product` in `list --json` and `show --json`, and what `products show --json` prints.
package struct ProductJSON: Encodable, Sendable {
    package var gtin14: String
    package var code: String
    @NullWhenAbsent package var name: String?
    @NullWhenAbsent package var brands: String?
    @NullWhenAbsent package var quantity: String?
    @NullWhenAbsent package var servingSize: String?
    @NullWhenAbsent package var nutriscoreGrade: String?
    @NullWhenAbsent package var novaGroup: Int?
    @NullWhenAbsent package var categories: String?
    /// Per 100 g.
    package var nutrition: Nutrition
    /// ISO 8601 UTC.
    @NullWhenAbsent package var lastModified: String?
    /// `off` or `manual`.
    package var source: String

    package struct Nutrition: Encodable, Sendable {
        @NullWhenAbsent package var energyKcal: Double?
        @NullWhenAbsent package var fat: Double?
        @NullWhenAbsent package var saturatedFat: Double?
        @NullWhenAbsent package var carbohydrates: Double?
        @NullWhenAbsent package var sugars: Double?
        @NullWhenAbsent package var fiber: Double?
        @NullWhenAbsent package var proteins: Double?
        @NullWhenAbsent package var salt: Double?

        package init(_ product: Product) {
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

    package init(_ product: Product) {
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
