import FileSystem
import Foundation
import Glibc
import Imaging
import SystemPackage

/// Why a reading in the engine did not come back.
enum EngineError: Error {
    /// No answer by the deadline.
    case timedOut
    /// The engine answered with an error.
    case answered(TextError)
    /// The engine ended (how, for the reason).
    case stopped(String)
}

/// One started engine process and its pipes.
// @unchecked Sendable: read and sent on by the one thread the engine's owner lends it to; `kill`,
// from `cancel` on any thread, only signals the process, which `Process` allows.
final class Running: @unchecked Sendable {
    private let process: Process
    private let requests: FileDescriptor
    private let answers: FileDescriptor

    /// Starts the engine and waits for it to load its languages.
    init(executable: FilePath, languages: [String]) throws(TextError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.string)
        process.arguments = ["text-engine", "--languages", languages.joined(separator: "+")]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash is reported by the reader, at once
        process.environment = environment
        let (toEngine, fromEngine) = (Pipe(), Pipe())
        process.standardInput = toEngine
        process.standardOutput = fromEngine
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .cannotStart("the text engine \(executable) did not start: \(error)")
        }
        self.process = process
        // Both ends are closed by `stop()`; the engine's ends closed here, so that its end is seen.
        requests = FileDescriptor(rawValue: dup(toEngine.fileHandleForWriting.fileDescriptor))
        answers = FileDescriptor(rawValue: dup(fromEngine.fileHandleForReading.fileDescriptor))
        try? toEngine.fileHandleForWriting.close()
        try? fromEngine.fileHandleForReading.close()
        do {
            _ = try Wire.answer(from: answers, until: Date().addingTimeInterval(60))
        } catch {
            stop()
            switch error {
            case .answered(let error): throw error
            case .timedOut: throw .cannotStart("the text engine did not load its languages within a minute")
            case .stopped(let how): throw .cannotStart("the text engine stopped while loading its languages (\(how))")
            }
        }
    }

    /// Sends `image` and waits for the words until `deadline`.
    func read(_ image: GreyImage, seconds: Double, until deadline: Date) throws(EngineError) -> (words: [RecognizedWord], seconds: Double) {
        do {
            try Wire.send(image, seconds: seconds, to: requests)
        } catch {
            throw .stopped(stoppedHow(or: "its input closed: \(error)"))
        }
        do {
            return try Wire.answer(from: answers, until: deadline)
        } catch .stopped {
            throw .stopped(stoppedHow(or: "its output ended"))
        }
    }

    /// Kills the engine at once (it is read no further).
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Ends the engine: its input closed, it ends by itself; killed if it is reading.
    func stop() {
        try? requests.close()
        kill()
        process.waitUntilExit()
        try? answers.close()
    }

    /// How the process ended, once it has (`kill`ed by a signal, or exited).
    private func stoppedHow(or otherwise: String) -> String {
        kill()
        process.waitUntilExit()
        switch process.terminationReason {
        case .uncaughtSignal: return "signal \(process.terminationStatus)"
        case .exit: return process.terminationStatus == 0 ? otherwise : "exit \(process.terminationStatus)"
        @unknown default: return otherwise
        }
    }
}
