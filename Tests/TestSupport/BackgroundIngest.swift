package import Foundation
import XCTest
import Catalog

/// The built `ingest` binary running in the background (`ingest watch`, `ingest run --wait`), its
/// output going to files; killed when released if it is still running.
package final class BackgroundIngest {
    private let process = Process()
    private let outFile: URL
    private let errFile: URL

    /// Starts `ingest` with `arguments` in `folder`, with `environment` added to the test's own.
    package init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
        let name = UUID().uuidString
        outFile = FileManager.default.temporaryDirectory.appendingPathComponent("watch-out-\(name)")
        errFile = FileManager.default.temporaryDirectory.appendingPathComponent("watch-err-\(name)")
        try Data().write(to: outFile)
        try Data().write(to: errFile)
        process.executableURL = IngestHarness.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outFile)
        try? FileManager.default.removeItem(at: errFile)
    }

    package var pid: Int32 { process.processIdentifier }

    /// Everything written to standard error so far.
    package var stderr: String { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }

    /// Everything written to standard output so far.
    package var stdout: String { (try? String(contentsOf: outFile, encoding: .utf8)) ?? "" }

    /// Whether the process ended by a signal (then `exitStatus` is the signal's number).
    package var endedBySignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// Sends `number` (SIGTERM, SIGINT) to the process.
    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The exit status once the process has ended, waiting up to `seconds`; nil while it still runs.
    package func exitStatus(within seconds: Double) -> Int32? {
        IngestHarness.eventually(within: seconds) { !process.isRunning } ? process.terminationStatus : nil
    }
}

extension IngestHarness {
    /// Checks `condition` every 50 ms until it holds or `seconds` have passed; whether it held.
    package static func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while true {
            if try condition() { return true }
            if Date() >= end { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// What is wrong between the catalogue and the library of `work`: a photo row without its
    /// original or thumbnail on disk, a library file no row names (photos, `capture.json` sidecars),
    /// files left in staging or in a commit journal. Empty when they agree.
    package static func libraryProblems(in work: URL) throws -> [String] {
        let library = work.appendingPathComponent("library")
        let catalogue = try IngestHarness.catalogue(at: library.appendingPathComponent("catalog.sqlite"))
        var named = Set<String>()
        var problems: [String] = []
        for capture in try catalogue.captures() {
            if let sidecar = capture.contextPath { named.insert(sidecar) }
            for photo in try catalogue.photos(ofCapture: capture.id) {
                for path in [photo.originalPath, photo.thumbPath] {
                    named.insert(path)
                    if !FileManager.default.fileExists(atPath: library.appendingPathComponent(path).path) {
                        problems.append("row without file: \(path)")
                    }
                }
            }
        }
        for folder in ["originals", "thumbs"] {
            for path in files(under: library.appendingPathComponent(folder)) where !named.contains("\(folder)/\(path)") {
                problems.append("file without row: \(folder)/\(path)")
            }
        }
        for folder in [".staging", ".journal"] {
            problems += files(under: library.appendingPathComponent(folder)).map { "left in \(folder): \($0)" }
        }
        return problems
    }
}
