import ArgumentParser
import Foundation
import Pipeline
import Vocabulary
import Catalog

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

        /// The product as typed.
        private var entry: ProductEntry {
            ProductEntry(code: code, name: name, brand: brand, quantity: quantity, kcal: kcal)
        }

        func validate() throws {
            do {
                _ = try entry.validated()
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            try withCommandContext(options) { context in
                let product = try entry.store(in: context.catalogue)
                if !options.quiet { printEscaped("stored \(ProductDescription.title(product)) for \(product.gtin14) (manual)") }
            }
        }
    }
}
