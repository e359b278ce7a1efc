import ArgumentParser
import Foundation
import Pipeline
import Catalog

extension Ingest {
    /// `ingest delete ID`: one capture out of the catalogue.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deletes one capture: its catalogue rows; its files are kept until ingest purge.",
            discussion: """
                One transaction, recorded as an edit: ingest undo brings the capture back, with its photos and \
                barcode hits, until ingest purge removes the files (ingest verify counts them as the catalogue's \
                meanwhile). Exit codes: 0 deleted; 1 no capture id starts with ID, or several do; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The capture's id, or any prefix of it (4 characters or more) that only it has.")
        var id: String

        func validate() throws {
            try Self.validateIdPrefix(id)
        }

        func run() throws {
            try Self.correcting(options) { catalogue in .delete(capture: try Self.captureId(id, in: catalogue)) }
        }
    }
}
