import ArgumentParser
import Foundation

/// The `ingest` command: turns an inbox of product photo sets into a searchable catalogue.
@main
struct Ingest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turns folders of product photos into a searchable product catalogue.",
        subcommands: commands
    )

    /// Every subcommand; `serve` only where the web server is built (see Package.swift).
    private static var commands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            Run.self, Watch.self, Export.self, List.self, Show.self, Merge.self, Split.self, Move.self, SetBarcode.self,
            Delete.self, Undo.self, Purge.self, Thumbnails.self, Text.self, Verify.self, Explain.self, Backup.self, Products.self, Workers.self,
            Status.self, CatalogCommands.self, TextEngineCommand.self,
        ]
        #if canImport(Web)
        commands.insert(Serve.self, at: 5)
        #endif
        return commands
    }

    /// Parses the command line and runs the command (awaiting it when it is asynchronous); an error
    /// it throws becomes the process's exit code, as argument-parser maps it.
    static func main() async {
        // A write past the file-size limit (RLIMIT_FSIZE) must fail with EFBIG, as a full disk fails
        // with ENOSPC, so the run stops cleanly with a message instead of being killed mid-commit.
        signal(SIGXFSZ, SIG_IGN)
        await main(nil)
    }
}
