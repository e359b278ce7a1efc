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
    /// Text fields, each read from the first of its names with a value.
    static var texts: [(names: [String], property: WritableKeyPath<Product, String?>)] {
        [
            (["product_name", "product_name_en", "generic_name"], \.name),
            (["brands"], \.brands),
            (["quantity"], \.quantity),
            (["serving_size"], \.servingSize),
            (["nutriscore_grade"], \.nutriscoreGrade),
            (["categories_en", "categories"], \.categories),
        ]
    }

    /// Nutrition per 100 g.
    static var nutrients: [(name: String, property: WritableKeyPath<Product, Double?>)] {
        [
            ("energy-kcal_100g", \.energyKcal), ("fat_100g", \.fat), ("saturated-fat_100g", \.saturatedFat),
            ("carbohydrates_100g", \.carbohydrates), ("sugars_100g", \.sugars), ("fiber_100g", \.fiber),
            ("proteins_100g", \.proteins), ("salt_100g", \.salt),
        ]
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
