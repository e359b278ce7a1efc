import ArgumentParser
import Pipeline
import Catalog

extension Ingest {
    /// `ingest move PHOTO --to ID`: a photo in the wrong capture.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Moves one photo into another capture; a capture left without photos is removed.",
            discussion: """
                Barcodes stay as they are. One transaction, recorded as an edit (ingest undo reverts it). \
                Exit codes: 0 moved; 1 the photo or capture not found, or the move refused; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The photo's id or a unique prefix (ingest show --json lists them).")
        var photo: String

        @Option(help: "The capture to move it into: its id or a unique prefix.")
        var to: String

        func validate() throws {
            try Self.validateIdPrefix(photo, option: "PHOTO")
            try Self.validateIdPrefix(to, option: "--to")
        }

        func run() throws {
            try Self.correcting(options) { catalogue in
                let found = try Self.photo(photo, in: catalogue)
                return .move(photo: found.id, from: found.captureId, to: try Self.captureId(to, in: catalogue))
            }
        }
    }
}
