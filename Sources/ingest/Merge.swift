import ArgumentParser
import Pipeline
import Catalog

extension Ingest {
    /// `ingest merge ID ID…`: captures that are one product, joined.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Joins captures into the first one: its id and context, every photo in time order.",
            discussion: """
                One transaction, recorded as an edit (ingest undo reverts it). Refused when the captures carry \
                different barcodes. Exit codes: 0 merged; 1 a capture not found or ambiguous, or the merge refused; \
                64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The captures' ids or unique prefixes (4 characters or more); the first keeps its id.")
        var ids: [String] = []

        func validate() throws {
            guard ids.count >= 2 else { throw ValidationError("give two captures or more to merge.") }
            for id in ids { try Self.validateIdPrefix(id) }
        }

        func run() throws {
            try Self.correcting(options) { catalogue in
                let found = try ids.map { try Self.captureId($0, in: catalogue) }
                return .merge(target: found[0], others: Array(found.dropFirst()))
            }
        }
    }
}
