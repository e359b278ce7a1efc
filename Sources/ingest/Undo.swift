import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest undo [EDIT]`: a correction reverted; `--list` shows the edits.
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reverts a correction (merge, split, move, set-barcode, delete): the latest, or edit EDIT.",
            discussion: """
                The undo is an edit too: undoing it makes the correction again. Refused while a capture the edit \
                touched is not as the edit left it (undo the later edit first), and for a delete whose files \
                ingest purge removed. --list shows the edits, newest first. Exit codes: 0 undone or listed; 1 \
                refused; 64 usage error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The edit's number (see --list); the latest that stands when left out.")
        var edit: Int64?

        @Flag(help: "List the edits, newest first, instead of undoing one.")
        var list = false

        @Option(help: "With --list: how many edits to show.")
        var limit = 20

        func validate() throws {
            if list && edit != nil { throw ValidationError("--list shows edits; give no EDIT with it.") }
            if limit < 1 { throw ValidationError("--limit must be 1 or more, got \(limit).") }
        }

        func run() throws {
            try withCommandContext(options) { context in
                if list {
                    let edits = try context.catalogue.edits(limit: limit)
                    printEscaped(edits.isEmpty ? "no edits" : edits.map(Self.line).joined(separator: "\n"))
                    return
                }
                let undo = try Self.refusing { try Corrector(catalogue: context.catalogue, logger: context.logger, origin: "cli").undo(edit) }
                if !options.quiet { printEscaped("edit #\(undo.id): \(undo.summary); ingest undo \(undo.id) makes it again") }
            }
        }

        /// `#12  2026-11-24T10:03:07.123Z  cli  merge  merged 2 captures into 3f2a1b2c (7 photos)  [undone by #13]`
        static func line(_ edit: Edit) -> String {
            var state: [String] = []
            if let undoes = edit.undoes { state.append("undoes #\(undoes)") }
            if let by = edit.undoneBy { state.append("undone by #\(by)") }
            if edit.purgedAt != nil { state.append("files purged") }
            return "#\(edit.id)  \(edit.madeAt)  \(edit.origin)  \(edit.kind.rawValue)  \(edit.summary)"
                + (state.isEmpty ? "" : "  [\(state.joined(separator: ", "))]")
        }
    }
}
