import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest.Products {
    /// `ingest products set CODE --name …`: a product entered by hand.
    struct SetProduct: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Enters or corrects a product by hand; imports keep it unless run with --replace-manual.",
            discussion: """
                Values not given are kept from the product's row when there is one. Exit codes: 0 stored; \
                64 usage error (not a GTIN, an empty name).
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The barcode's digits.")
        var code: String

        @Option(help: "The product's name.")
        var name: String

        @Option(help: "The brand, or brands separated by commas.")
        var brand: String?

        @Option(help: "The quantity as printed, such as 400 g.")
        var quantity: String?

        @Option(help: "Energy in kcal per 100 g.")
        var kcal: Double?

        func validate() throws {
            try Ingest.Products.validateGTIN(code)
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--name must not be empty.") }
            if let kcal, !(0 ... 10_000).contains(kcal) { throw ValidationError("--kcal must be 0…10000, got \(kcal).") }
        }

        func run() throws {
            let (_, _, catalogue) = try options.openCatalogue()
            defer { try? catalogue.close() }
            let keys = ProductCode.keys(for: code) ?? []
            let existing = try catalogue.product(gtin14Keys: keys)
            var product = existing.map { $0.aliasOf == nil ? $0 : Product(gtin14: keys[0], code: code, source: .manual) }
                ?? Product(gtin14: keys[0], code: code, source: .manual)
            product.source = .manual
            product.name = name
            if let brand { product.brands = brand }
            if let quantity { product.quantity = quantity }
            if let kcal { product.energyKcal = kcal }
            let copies = keys.filter { $0 != product.gtin14 }.map { product.alias(gtin14: $0) }
            _ = try catalogue.upsertProducts([product] + copies, replaceManual: true)
            if !options.quiet { print("stored \(ProductDescription.title(product)) for \(product.gtin14) (manual)") }
        }
    }
}
