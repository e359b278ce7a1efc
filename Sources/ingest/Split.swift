import ArgumentParser
import Catalog
import Pipeline

extension Ingest {
    /// `ingest split ID --at PHOTO`: one capture that is two products, cut in two.
    struct Split: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cuts a capture in two before one of its photos; that photo and the later ones become a new capture.",
            discussion: """
                Each part keeps the barcode its photos read. One transaction, recorded as an edit (ingest undo \
                reverts it). Exit codes: 0 split; 1 the capture or photo not found, or the split refused; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The capture's id or a unique prefix (4 characters or more).")
        var id: String

        @Option(help: "The first photo of the new capture: its number in ingest show (2, 3, …) or its id or a unique prefix.")
        var at: String

        func validate() throws {
            try Self.validateIdPrefix(id)
            if Int(at) == nil { try Self.validateIdPrefix(at, option: "--at") }
        }

        func run() throws {
            try Self.correcting(options) { catalogue in
                let capture = try Self.captureId(id, in: catalogue)
                guard let number = Int(at), at.count < Catalogue.minimumIdPrefixLength else {
                    return .split(capture: capture, atPhoto: try Self.photo(at, in: catalogue).id)
                }
                let photos = try catalogue.photos(ofCapture: capture)
                guard (1 ... photos.count).contains(number) else {
                    throw ValidationError("--at \(number): the capture has photos 1 to \(photos.count).")
                }
                return .split(capture: capture, atPhoto: photos[number - 1].id)
            }
        }
    }
}
