import ArgumentParser
import Catalog
import Foundation
import Vocabulary

extension Ingest {
    /// `ingest list`: the captures a filter matches, as a table or JSON.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists catalogued captures, newest first.",
            discussion: """
                Filters combine. Shows the newest \(pageSize) unless --limit or --all is given, and says on \
                standard error how many more match; --before ID continues after a capture, as the next page. \
                --json prints one JSON array with the fields described in docs/commands.md.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "Only captures with this barcode or GTIN-13.")
        var barcode: String?

        @Flag(help: "Only captures without a barcode.")
        var noBarcode = false

        @Option(help: "Only captures for this agent: its id, or part of its name in any case.")
        var agent: String?

        @Option(help: "Only captures taken from this day (YYYY-MM-DD, UTC) or ISO 8601 time on.")
        var since: TimeBound?

        @Option(help: "Only captures taken before this ISO 8601 time, or up to the end of this day.")
        var until: TimeBound?

        @Option(help: "Only captures with this rating: Excellent, Good, Fair or Poor.")
        var rating: Rating?

        @Option(name: .customLong("set"), help: "Only captures of this set (inbox folder name).")
        var setName: String?

        @Option(help: "Only captures whose product name or brand, set name or barcode contains this text (any case and accents).")
        var search: String?

        @Option(help: "Show at most this many captures (default \(Self.pageSize)).")
        var limit: Int?

        @Flag(help: "Show every matching capture, however many.")
        var all = false

        @Option(help: "Show the captures listed after this one (its id or a unique prefix): the next page.")
        var before: String?

        @Flag(help: "Print only the number of matching captures.")
        var count = false

        @Flag(help: "Print one JSON array instead of a table.")
        var json = false

        /// Captures shown when neither --limit nor --all is given, on a terminal or not.
        static let pageSize = 50

        /// The line about more matches counts them up to this many: counting a million takes
        /// ~100 ms, ten times the page itself.
        static let exactMore = 10_001

        func validate() throws {
            if barcode != nil && noBarcode { throw ValidationError("--barcode and --no-barcode exclude each other.") }
            if all && limit != nil { throw ValidationError("--all and --limit exclude each other.") }
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, got \(limit).") }
            if let before { try Self.validateIdPrefix(before, option: "--before") }
        }

        func run() throws {
            try withCommandContext(options) { context in
                let catalogue = context.catalogue
                let filter = CaptureFilter(barcode: barcode, setName: setName, since: since?.seconds, until: until?.untilSeconds,
                                           noBarcode: noBarcode, rating: rating, agent: agent, search: search)
                let cursor = try before.map { id in CaptureCursor(try Self.requiringCapture(id) { try catalogue.capture(idPrefix: id) }) }
                if count { return print(try catalogue.count(matching: filter, before: cursor)) }
                let agents = try catalogue.agents()
                var output = json ? CaptureListOutput.json(agents: agents) : CaptureListOutput.table(agents: agents)
                guard !all else {
                    // Page by page along the index (each page's hits read between pages, not inside
                    // the read that yields the captures): no more memory than one page.
                    var after = cursor
                    while true {
                        let (page, products) = try Self.page(catalogue, filter, limit: CaptureListOutput.chunkSize, before: after)
                        try output.write(page, products: products, catalogue: catalogue)
                        guard page.count == CaptureListOutput.chunkSize, let last = page.last else { break }
                        after = CaptureCursor(last)
                    }
                    return output.finish()
                }
                let pageSize = limit ?? Self.pageSize
                // One more than the page: whether more match, without counting them when none do.
                var (shown, products) = try Self.page(catalogue, filter, limit: pageSize + 1, before: cursor)
                if shown.count > pageSize {
                    shown.removeLast()
                    try output.write(shown, products: products, catalogue: catalogue)
                    output.finish()
                    try sayMore(after: shown, pageSize: pageSize, filter: filter, cursor: cursor, catalogue: catalogue)
                } else {
                    try output.write(shown, products: products, catalogue: catalogue)
                    output.finish()
                }
            }
        }

        /// Up to `limit` captures matching `filter` before `cursor`, newest first, with their products by GTIN-13.
        private static func page(_ catalogue: Catalogue, _ filter: CaptureFilter, limit: Int, before cursor: CaptureCursor?) throws
            -> ([Capture], [String: Product]) {
            var captures: [Capture] = []
            var products: [String: Product] = [:]
            try catalogue.forEachCapture(matching: filter, limit: limit, before: cursor) { capture, product in
                captures.append(capture)
                if let gtin13 = capture.gtin13, let product { products[gtin13] = product }
            }
            return (captures, products)
        }

        /// The line on standard error about the captures a full page did not show.
        private func sayMore(after page: [Capture], pageSize: Int, filter: CaptureFilter, cursor: CaptureCursor?,
                             catalogue: Catalogue) throws {
            guard !options.quiet, let last = page.last else { return }
            let more = try catalogue.count(matching: filter, before: CaptureCursor(last), upTo: Self.exactMore)
            let howMany = more < Self.exactMore ? "\(more)" : "more than \(Self.exactMore - 1)"
            FileHandle.standardError.write(Data("""
                ingest: \(howMany) more captures match; see them with --limit N or --all (--count counts them), or the next page with --before \(last.id.prefix(13))

                """.utf8))
        }
    }
}
