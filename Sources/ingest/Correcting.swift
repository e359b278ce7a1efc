import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension ParsableCommand {
    /// What the correction commands share: open the catalogue (no library lock: a correction writes
    /// rows only, in one transaction, so it runs beside `ingest watch`), find the captures and
    /// photos, make the correction as one recorded edit, say what it did and how to undo it. A
    /// correction that does not fit the captures exits 1 with the reason; nothing is changed.
    static func correcting(_ options: CommonOptions, _ correction: (Catalogue) throws -> Correction) throws {
        let edit = try withCommandContext(options) { context in
            let asked = try correction(context.catalogue)
            return try refusing { try Corrector(catalogue: context.catalogue, logger: context.logger, origin: "cli").apply(asked) }
        }
        if !options.quiet { printEscaped("edit #\(edit.id): \(edit.summary); ingest undo \(edit.id) reverts it") }
    }

    /// Runs `body`; a correction or an undo it refuses is said on standard error, exit 1.
    static func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CorrectionError {
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
        } catch let error as EditError {
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
        }
        throw ExitCode.failure
    }

    /// The id of the capture `prefix` names; exits 1 saying so when none or several do.
    static func captureId(_ prefix: String, in catalogue: Catalogue) throws -> String {
        try requiringCapture(prefix) { try catalogue.capture(idPrefix: prefix) }.id
    }

    /// The photo `prefix` names; exits 1 saying so when none or several do.
    static func photo(_ prefix: String, in catalogue: Catalogue) throws -> Photo {
        let found = try refusing { try catalogue.photo(idPrefix: prefix) }
        guard let found else {
            throw ExitCode.failure(saying: "no photo id starts with '\(prefix)'; see ingest show --json.")
        }
        return found
    }
}
