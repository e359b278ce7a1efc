import ArgumentParser
import Pipeline
import Vocabulary

extension Ingest {
    /// `ingest set-barcode ID CODE|--none`: a barcode the reader missed or misread.
    struct SetBarcode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-barcode",
            abstract: "Sets a capture's barcode by hand (its check digit checked, stored as GTIN-13), or removes it with --none.",
            discussion: """
                Takes an EAN-13, a UPC-A, an EAN-8 or a UPC-E (spaces and hyphens ignored). One transaction, \
                recorded as an edit (ingest undo reverts it). Exit codes: 0 set; 1 the capture not found, or it has \
                that barcode already; 64 usage error (not a GTIN, a wrong check digit).
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The capture's id or a unique prefix (4 characters or more).")
        var id: String

        @Argument(help: "The barcode's digits.")
        var code: String?

        @Flag(help: "Remove the capture's barcode.")
        var none = false

        func validate() throws {
            try Self.validateIdPrefix(id)
            guard (code == nil) == none else { throw ValidationError("give a CODE or --none, not both or neither.") }
            if let code {
                do {
                    _ = try ManualBarcode(parsing: code)
                } catch {
                    throw ValidationError(error.description)
                }
            }
        }

        func run() throws {
            try Self.correcting(options) { catalogue in
                .setBarcode(capture: try Self.captureId(id, in: catalogue), code: try code.map { try ManualBarcode(parsing: $0) })
            }
        }
    }
}
