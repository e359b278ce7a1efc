import Catalog

/// How one dump format reads its records: the CSV export or the JSONL dump of Open Food Facts.
protocol DumpFormat: AnyObject {
    /// Takes the record that starts with `line`, reading more lines from `reader` if it spans them.
    /// Throws `TabSeparatedFields.Malformed` for a record that cannot be read.
    func load(_ line: UnsafeBufferPointer<UInt8>, reader: LineReader) throws
    /// The loaded record's product code as written; nil when it has none.
    func code() throws -> String?
    /// Sets the product's name, brands, nutrition… from the loaded record.
    func fill(_ product: inout Product) throws
}

/// The fields both formats share: Open Food Facts' names, and the product property each goes to.
enum OFFField {
    /// Text fields, each read from the first of its names with a value, in the order `setTexts` sets them.
    static let texts: [[String]] = [
        ["product_name", "product_name_en", "generic_name"], ["brands"], ["quantity"], ["serving_size"],
        ["nutriscore_grade"], ["categories_en", "categories"],
    ]

    /// Nutrition per 100 g, in the order `setNutrients` sets them.
    static let nutrients = [
        "energy-kcal_100g", "fat_100g", "saturated-fat_100g", "carbohydrates_100g", "sugars_100g", "fiber_100g",
        "proteins_100g", "salt_100g",
    ]

    /// Sets the product's text properties from `value(i)`, the value of `texts[i]`. Plain
    /// assignments: a key path's write costs more than the rest of the field, millions of times.
    static func setTexts(of product: inout Product, _ value: (Int) throws -> String?) rethrows {
        product.name = try value(0)
        product.brands = try value(1)
        product.quantity = try value(2)
        product.servingSize = try value(3)
        product.nutriscoreGrade = try value(4)
        product.categories = try value(5)
    }

    /// Sets the product's nutrition from `value(i)`, the value of `nutrients[i]`.
    static func setNutrients(of product: inout Product, _ value: (Int) throws -> Double?) rethrows {
        product.energyKcal = try value(0)
        product.fat = try value(1)
        product.saturatedFat = try value(2)
        product.carbohydrates = try value(3)
        product.sugars = try value(4)
        product.fiber = try value(5)
        product.proteins = try value(6)
        product.salt = try value(7)
    }

    /// NOVA group 1…4 from a number; other values are no group.
    static func novaGroup(_ value: Double?) -> Int? {
        guard let value, value == value.rounded(), (1 ... 4).contains(value) else { return nil }
        return Int(value)
    }

    /// Seconds since 1970 from a number; nil for none or a value out of range.
    static func time(_ value: Double?) -> Int64? {
        guard let value, value >= 0, value < 1e12 else { return nil }
        return Int64(value)
    }
}
