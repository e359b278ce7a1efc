import ArgumentParser
import Catalog
import Foundation

extension Ingest {
    /// `ingest list`: the captures a filter matches, as a table or JSON.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists catalogued captures, newest first.",
            discussion: "Filters combine; --json prints one JSON array with the fields described in README.md."
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

        @Flag(help: "Print one JSON array instead of a table.")
        var json = false

        func validate() throws {
            if barcode != nil && noBarcode { throw ValidationError("--barcode and --no-barcode exclude each other.") }
        }

        func run() throws {
            let (_, _, catalogue) = try options.openCatalogue()
            let filter = CaptureFilter(barcode: barcode, setName: setName, since: since?.seconds, until: until?.untilSeconds,
                                       noBarcode: noBarcode, rating: rating, agent: agent)
            let captures = try catalogue.captures(matching: filter)
            let agents = try catalogue.agents()
            if json {
                try printJSON(captures.map { CaptureJSON($0, agents: agents) })
            } else {
                print(CaptureTable(captures: captures, agents: agents).text, terminator: "")
            }
        }
    }
}
