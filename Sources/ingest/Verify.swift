import ArgumentParser
import Catalog
import Foundation
import Pipeline

extension Ingest {
    /// `ingest verify`: does the library folder match the catalogue?
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks that the library folder and the catalogue match.",
            discussion: """
                Every catalogued original must be there with its SHA-256, every thumbnail with its recorded size, \
                and every file in the library must be catalogued. --repair makes missing or wrong thumbnails anew \
                and moves unreferenced files to <quarantine>/unreferenced/ (it never deletes); a missing or changed \
                original cannot be repaired. Exit codes: 0 the library matches, or was fully repaired; 1 something \
                is still wrong; 64 usage error; 75 another ingest holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Flag(help: "Make missing and wrong thumbnails anew and move unreferenced files to the quarantine.")
        var repair = false

        func run() throws {
            let (config, logger, catalogue) = try options.openCatalogue()
            defer { try? catalogue.close() }
            let libraryLock = try lock.lockLibrary(config, logger: logger)
            defer { libraryLock.release() }
            let verifier = try LibraryVerifier(config: config, catalogue: catalogue, logger: logger)
            var report = try verifier.verify()
            if repair { report = try verifier.repair(report) }
            if !options.quiet || !report.isClean {
                print(LibraryReportPrinter(report: report).text, terminator: "")
            }
            if !report.isClean { throw ExitCode(1) }
        }
    }
}
