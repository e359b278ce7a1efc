import ArgumentParser
import Foundation

/// The `ingest` command: turns an inbox of product photo sets into a searchable catalogue.
@main
struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turns folders of product photos into a searchable product catalogue.",
        subcommands: [
            Run.self, Watch.self, Export.self, List.self, Show.self, Delete.self, Thumbnails.self, Verify.self, Backup.self,
            Products.self, Workers.self, CatalogCommands.self,
        ]
    )

    static func main() {
        // A write past the file-size limit (RLIMIT_FSIZE) must fail with EFBIG, as a full disk fails
        // with ENOSPC, so the run stops cleanly with a message instead of being killed mid-commit.
        signal(SIGXFSZ, SIG_IGN)
        main(nil)
    }
}
