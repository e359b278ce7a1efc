import Catalog
import Foundation

/// A capture's `product` in `list --json` and `show --json`, and what `products show --json` prints.
struct ProductJSON: Encodable {
    var gtin14: String
    var code: String
    @NullWhenAbsent var name: String?
    @NullWhenAbsent var brands: String?
    @NullWhenAbsent var quantity: String?
    @NullWhenAbsent var servingSize: String?
    @NullWhenAbsent var nutriscoreGrade: String?
    @NullWhenAbsent var novaGroup: Int?
    @NullWhenAbsent var categories: String?
    /// Per 100 g.
    var nutrition: Nutrition
    /// ISO 8601 UTC.
    @NullWhenAbsent var lastModified: String?
    /// `off` or `manual`.
    var source: String

    struct Nutrition: Encodable {
        @NullWhenAbsent var energyKcal: Double?
        @NullWhenAbsent var fat: Double?
        @NullWhenAbsent var saturatedFat: Double?
        @NullWhenAbsent var carbohydrates: Double?
        @NullWhenAbsent var sugars: Double?
        @NullWhenAbsent var fiber: Double?
        @NullWhenAbsent var proteins: Double?
        @NullWhenAbsent var salt: Double?

        init(_ product: Product) {
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

    init(_ product: Product) {
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
