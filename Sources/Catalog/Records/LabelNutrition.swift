/// The nutrition values read from a photo of a package's nutrition table, in grams (energy in kJ
/// and kcal) per 100 g, or per serving where the table gives no other (`servingGrams` then says
/// how large one is). A value not read is nil.
package struct LabelNutrition: Codable, Sendable, Hashable {
    package var energyKJ: Double?
    package var energyKcal: Double?
    package var fat: Double?
    package var saturates: Double?
    package var carbohydrate: Double?
    package var sugars: Double?
    package var fibre: Double?
    package var protein: Double?
    package var salt: Double?
    /// Set when the values are per serving: the serving's grams, when the table says.
    package var perServing: Bool?
    package var servingGrams: Double?

    package init(energyKJ: Double? = nil, energyKcal: Double? = nil, fat: Double? = nil, saturates: Double? = nil,
                 carbohydrate: Double? = nil, sugars: Double? = nil, fibre: Double? = nil, protein: Double? = nil,
                 salt: Double? = nil) {
        self.energyKJ = energyKJ
        self.energyKcal = energyKcal
        self.fat = fat
        self.saturates = saturates
        self.carbohydrate = carbohydrate
        self.sugars = sugars
        self.fibre = fibre
        self.protein = protein
        self.salt = salt
    }

    /// The nutrients, as `show --json` names them, with the key path of each.
    /// (Computed: a key path is not `Sendable`, so a stored static one would not be safe.)
    package static var nutrients: [(key: String, path: WritableKeyPath<LabelNutrition, Double?>)] {
        [
            ("energyKJ", \.energyKJ), ("energyKcal", \.energyKcal), ("fat", \.fat), ("saturates", \.saturates),
            ("carbohydrate", \.carbohydrate), ("sugars", \.sugars), ("fibre", \.fibre), ("protein", \.protein), ("salt", \.salt),
        ]
    }

    /// How many values were read.
    package var count: Int { Self.nutrients.filter { self[keyPath: $0.path] != nil }.count }
}

extension LabelNutrition {
    /// The nutrients a product's data gives too, as `nutrients` names them, with the dump's value.
    /// (kJ is not in the dumps' columns: the kcal stand for the energy.)
    package static func database(_ product: Product) -> [(key: String, value: Double?)] {
        [
            ("energyKcal", product.energyKcal), ("fat", product.fat), ("saturates", product.saturatedFat),
            ("carbohydrate", product.carbohydrates), ("sugars", product.sugars), ("fibre", product.fiber),
            ("protein", product.proteins), ("salt", product.salt),
        ]
    }

    /// The nutrients where the label and `product`'s data differ by more than a tenth of the larger
    /// value and by more than one unit (a gram, a kcal): a misread label, or a dump row for another
    /// recipe. Empty for a table given per serving, which the dump's per-100 g values do not match.
    package func disagreements(with product: Product) -> [(key: String, label: Double, database: Double)] {
        guard perServing != true else { return [] }
        let read = Dictionary(uniqueKeysWithValues: Self.nutrients.map { ($0.key, self[keyPath: $0.path]) })
        return Self.database(product).compactMap { key, database in
            guard let database, let label = read[key] ?? nil else { return nil }
            let difference = abs(label - database)
            return difference > 1 && difference > 0.1 * max(abs(label), abs(database)) ? (key, label, database) : nil
        }
    }
}
