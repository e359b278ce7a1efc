import ArgumentParser
import Pipeline

extension Ingest {
    /// `ingest text-engine`: Tesseract for the `ingest` that starts it, over its standard input and
    /// output (`TextEngine`). Not for people: hidden from the help.
    struct TextEngineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "text-engine",
            abstract: "Reads text for the ingest that started it, on its standard input and output.",
            shouldDisplay: false
        )

        @Option(help: "The languages, Tesseract's names joined by +.")
        var languages: String

        func run() throws {
            let status = TextEngine.serve(languages: languages.split(separator: "+").map(String.init))
            if status != 0 { throw ExitCode(status) }
        }
    }
}
