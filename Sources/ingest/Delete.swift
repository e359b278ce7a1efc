import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest delete ID`: one capture out of the catalogue and the library.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deletes one capture: its catalogue rows, originals and thumbnails.",
            discussion: """
                The rows go first, in one transaction, then the files; should ingest stop in between, \
                ingest verify --repair sets the files left behind aside. Exit codes: 0 deleted; 1 no capture \
                id starts with ID, several do, or a file could not be removed; 64 usage error; 75 another ingest holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Argument(help: "The capture's id, or any prefix of it (4 characters or more) that only it has.")
        var id: String

        func validate() throws {
            try Self.validateIdPrefix(id)
        }

        func run() throws {
            let (config, logger, catalogue, libraryLock) = try options.openCatalogue(locking: lock)
            defer { libraryLock?.release() }
            defer { try? catalogue.close() }
            let remover = CaptureRemover(config: config, catalogue: catalogue, logger: logger)
            let removal = try Self.requiringCapture(id) { try remover.delete(idPrefix: id) }
            if !options.quiet {
                print("deleted capture \(removal.capture.id) of set \(removal.capture.setName): "
                    + "\(removal.photos.count) photos, \(removal.removedFiles.count) files removed")
            }
            guard removal.leftFiles.isEmpty else {
                print(removal.leftFiles.map { "left in the library: \($0.path): \($0.reason)" }.joined(separator: "\n"))
                throw ExitCode(1)
            }
        }
    }
}
