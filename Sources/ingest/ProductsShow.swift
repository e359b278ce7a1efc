import ArgumentParser
import Foundation
import Pipeline
import Views
import Vocabulary
import Catalog

extension Ingest.Products {
    /// `ingest products show CODE`: the product a barcode stands for.
    struct ShowProduct: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Shows the product of a barcode, in any of its forms (UPC-A, UPC-E, EAN-8, EAN-13, GTIN-14).",
            discussion: "Exit codes: 0 shown; 1 no product has this code; 64 usage error (not a GTIN)."
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The barcode's digits.")
        var code: String

        @Flag(help: "Print one JSON object instead of text.")
        var json = false

        func validate() throws {
            try Ingest.Products.validateGTIN(code)
        }

        func run() throws {
            try withCommandContext(options) { context in
                let keys = ProductCode.keys(for: code) ?? []
                guard let product = try context.catalogue.product(gtin14Keys: keys) else {
                    throw ExitCode.failure(saying: "no product for \(code) (GTIN-14 \(keys.joined(separator: " or "))); "
                        + "import a dump with ingest products import, or enter it with ingest products set.")
                }
                if json { return try printJSON(ProductJSON(product)) }
                let lines = ["product   " + ProductDescription(product: product, indent: "          ").lines.joined(separator: "\n"),
                             "gtin14    \(product.aliasOf ?? product.gtin14) (code \(product.code))"]
                printEscaped(lines.joined(separator: "\n"))
            }
        }
    }

    /// `ingest products stats`: how many products, how recent, and how many captures have one.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Counts products, the dump's date, and captures with and without product data.")

        @OptionGroup var options: CommonOptions

        func run() throws {
            try withCommandContext(options) { context in
                let stats = try context.catalogue.productStats()
                print("""
                    products   \(stats.fromDumps) from dumps, \(stats.manual) entered by hand
                    dump date  \(stats.newestModified.map { ProductDescription.time($0) + " (its newest row)" } ?? "no dump imported")
                    captures   \(stats.capturesWithProduct) with product data, \(stats.capturesWithoutProduct) without
                    """)
            }
        }
    }
}
