package import Catalog
package import Foundation
import Logging
import XCTest

/// Runs the built `ingest` binary and the shared corpus tools for end-to-end tests.
package enum IngestHarness {
    /// The package root, found from this file's path.
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the package root, as CI lays it out.
    package static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The `ingest` executable built next to this test bundle.
    package static var binary: URL {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [bundleFolder, bundleFolder.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("ingest")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/release/ingest")
    }

    package struct Outcome {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs `executable` with `arguments` in `folder` and waits for it, at most `timeout` seconds:
    /// then it is killed and the test fails, so a hanging run cannot hang the suite.
    @discardableResult
    package static func execute(_ executable: URL, _ arguments: [String], in folder: URL, timeout: Double = 300) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        // Files, not pipes: a chatty child can never block on a full pipe.
        let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("`\(executable.lastPathComponent) \(arguments.joined(separator: " "))` did not end within \(timeout) s; killed")
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: try Data(contentsOf: outFile), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errFile), as: UTF8.self))
    }

    /// Runs `ingest` with `arguments` in `folder`, at most `timeout` seconds.
    @discardableResult
    package static func ingest(_ arguments: [String], in folder: URL, timeout: Double = 300) throws -> Outcome {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path),
                      "the ingest binary is missing at \(binary.path): run `swift build` first")
        return try execute(binary, arguments, in: folder, timeout: timeout)
    }

    /// Runs a shell command line (for python3, cp and the like); fails the test when it fails.
    @discardableResult
    package static func shell(_ command: String, in folder: URL) throws -> String {
        let outcome = try execute(URL(fileURLWithPath: "/bin/bash"), ["-c", command], in: folder)
        XCTAssertEqual(outcome.status, 0, "`\(command)` failed: \(outcome.stderr)")
        return outcome.stdout
    }

    /// Runs `../shared/corpus/gen_corpus.py OUT arguments…`; true when it made the corpus.
    package static func generateCorpus(into out: URL, _ arguments: [String]) -> Bool {
        let generator = shared.appendingPathComponent("corpus/gen_corpus.py").path
        let outcome = try? execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", generator, out.path] + arguments,
                                   in: out.deletingLastPathComponent())
        return outcome?.status == 0
    }

    /// Writes a pipeline.json with `settings` into `folder`. Text reading is off unless `settings`
    /// sets `text`: about a second of processor time a photo, which only the tests of it need.
    package static func writeConfig(_ settings: [String: Any], in folder: URL) throws {
        let settings = settings.merging(["text": "off"]) { given, _ in given }
        let data = try JSONSerialization.data(withJSONObject: settings, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: folder.appendingPathComponent("pipeline.json"))
    }

    /// Opens the catalogue a run made, for checking rows.
    package static func catalogue(at path: URL) throws -> Catalogue {
        try Catalogue(path: path.path, logger: Logger(label: "test"))
    }

    /// Every file below `folder` (not following links), as paths relative to it.
    package static func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var info = stat()
            if lstat(folder.appendingPathComponent(path).path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                found.append(path)
            }
        }
        return found.sorted()
    }
}
