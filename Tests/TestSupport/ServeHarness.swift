package import Foundation
package import XCTest

/// `ingest serve` running in a test's work folder: started on a free loopback port, its URL read
/// from its first line, stopped (SIGTERM, then SIGKILL if it lingers) when the test ends.
package final class ServeHarness {
    package let process: Process
    /// `http://127.0.0.1:PORT/`.
    package let url: String
    package let client: HTTPClient
    private let output: URL
    private let errors: URL

    /// Starts `ingest serve` with `arguments` (after `serve`) in `folder` and waits until it listens;
    /// through `launcher` (a command and its arguments, such as `prlimit --fsize=N`) when given.
    package init(in folder: URL, arguments: [String] = ["--listen", "127.0.0.1:0"], environment: [String: String] = [:],
                launcher: [String] = [], test: XCTestCase) throws {
        output = folder.appendingPathComponent("serve-\(UUID().uuidString).out")
        errors = folder.appendingPathComponent("serve-\(UUID().uuidString).err")
        try Data().write(to: output)
        try Data().write(to: errors)
        process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [IngestHarness.binary.path, "serve"] + arguments
        } else {
            process.executableURL = IngestHarness.binary
            process.arguments = ["serve"] + arguments
        }
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var found: String?
        let deadline = Date().addingTimeInterval(30)
        while found == nil, process.isRunning, Date() < deadline {
            let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            found = text.range(of: #"http://[^ \n]+"#, options: .regularExpression).map { String(text[$0]) }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw HTTPClientError(reason: "ingest serve did not start: \(String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))")
        }
        url = found
        client = HTTPClient(url: found)
        let process = process
        test.addTeardownBlock { _ = ServeHarness.stop(process) }
    }

    /// Standard error so far.
    package var log: String { String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self) }

    /// Stops the server with SIGTERM and returns its exit status.
    @discardableResult
    package func stop() -> Int32 { Self.stop(process) }

    @discardableResult
    private static func stop(_ process: Process) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
