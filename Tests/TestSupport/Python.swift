package import Foundation

/// Runs `python3 -c script arguments…` (with `input` on its standard input) and returns its standard
/// output; throws with its standard error when it exits with a failure. The tests make their real
/// image files this way.
package func runPython(_ script: String, arguments: [String] = [], input: Data? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let feed = Pipe()
    if input == nil { process.standardInput = FileHandle.nullDevice } else { process.standardInput = feed }
    try process.run()
    if let input {
        feed.fileHandleForWriting.write(input)
        try feed.fileHandleForWriting.close()
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw PythonFailure(status: process.terminationStatus, standardError: String(decoding: err, as: UTF8.self))
    }
    return String(decoding: out, as: UTF8.self)
}

/// `python3` exited with a failure.
package struct PythonFailure: Error, CustomStringConvertible {
    package var status: Int32
    package var standardError: String
    package var description: String { "python3 exited with \(status): \(standardError)" }
}
