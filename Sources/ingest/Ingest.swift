import ArgumentParser

/// The `ingest` command: turns an inbox of product photo sets into a searchable catalogue.
@main
struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turns folders of product photos into a searchable product catalogue.",
        subcommands: [Run.self, Watch.self, Export.self, List.self, Show.self, Delete.self, Thumbnails.self, Verify.self]
    )
}
