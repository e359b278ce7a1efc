import ArgumentParser
import Pipeline
import Vocabulary

extension Ingest {
    /// `ingest products`: what each barcode's product is, from an Open Food Facts dump or by hand.
    struct Products: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Imports, shows and corrects product data (name, brand, nutrition) for barcodes.",
            discussion: """
                Products come from an Open Food Facts dump (ingest products import) or are entered by hand \
                (ingest products set). Captures show the product of their barcode wherever they are listed.
                """,
            subcommands: [ImportDump.self, ShowProduct.self, Stats.self, SetProduct.self]
        )

        /// Refuses a code that is not a GTIN (exit 64): `products show` and `set` take a barcode's digits.
        static func validateGTIN(_ code: String) throws {
            guard ProductCode.keys(for: code) != nil else {
                throw ValidationError("'\(code)' is not a GTIN: give the barcode's digits (8 to 14 of them, leading zeros allowed).")
            }
        }
    }
}
