import ArgumentParser
import Foundation

extension ExitCode {
    /// 75 (EX_TEMPFAIL): another ingest holds the library; the same command later will do.
    static let libraryLocked = ExitCode(75)

    /// Says `problem` on standard error, each of its lines after `ingest: `, and gives
    /// `validationFailure` (64, EX_USAGE) to throw. For a usage or configuration problem found
    /// once the arguments are parsed (a configuration file's values, an address): a
    /// `ValidationError` would print the command's usage text too, which the problem is not about.
    static func validationFailure(saying problem: String) -> ExitCode {
        say(problem)
        return .validationFailure
    }

    /// Says `problem` as `validationFailure(saying:)` does, and gives `failure` (1) to throw: the
    /// command could not do what was asked (nothing found, a failed import or copy).
    static func failure(saying problem: String) -> ExitCode {
        say(problem)
        return .failure
    }

    private static func say(_ problem: String) {
        let lines = problem.split(separator: "\n").map { "ingest: \($0)\n" }
        FileHandle.standardError.write(Data(lines.joined().utf8))
    }
}
