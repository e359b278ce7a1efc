import FileSystem
import Foundation
import Glibc
package import Imaging
import Synchronization
package import SystemPackage

/// Tesseract in a process of its own (`ingest text-engine`), one per worker, so that a photo's
/// `textSeconds` is a bound and a crash costs one photo:
///
/// - Tesseract looks at its deadline while it recognises words, not while it lays out the page: a
///   page of dense small print is laid out for 5 s on this machine, 10 s on a loaded one, however
///   little time it was given. A reading that runs over is killed, and the engine started again.
/// - Tesseract and Leptonica are large C and C++ libraries reading what a stranger photographed;
///   should one crash on a photo, that photo is given up with the reason, and the run goes on.
///
/// Used by one thread at a time; `cancel()` from any thread. The engine inherits the priority of
/// the thread that starts it (Linux gives a new process its creating thread's nice value), so the
/// background reader's engines run at the lowest priority too.
// @unchecked Sendable: the process and its pipes are used by one thread at a time, as the owner
// (`TextReader`) hands each engine to one worker at a time; `cancel` touches only `running`,
// behind its mutex, and the atomic flag.
package final class TextEngine: @unchecked Sendable {
    package let languages: [String]
    private let executable: FilePath
    private let running = Mutex<Running?>(nil)
    private let cancelled = Atomic(false)
    /// Processor seconds the engine spent on the readings so far (a reading killed counts the
    /// seconds it ran).
    package private(set) var seconds = 0.0

    /// The time a reading is given past its own seconds, to lay out, answer and be read back,
    /// before the engine is killed: Tesseract stops recognising at the deadline by itself.
    static let grace = 0.5

    /// Starts the engine for `languages` (the executable: this process's own, `ingest`). Throws
    /// `missingLanguage` for a language whose trained data is not installed, `cannotStart` when the
    /// engine does not start.
    package init(languages: [String], executable: FilePath = TextEngine.ownExecutable) throws(TextError) {
        if let missing = TextRecognizer.missingLanguage(among: languages) { throw .missingLanguage(missing) }
        self.languages = languages
        self.executable = executable
        Self.ignoreBrokenPipes
        try running.withLock { running throws(TextError) in running = try Running(executable: executable, languages: languages) }
    }

    deinit {
        stop()
    }

    /// Ends the engine process and waits for it (its processor time is then this process's
    /// children's, as `time` and `getrusage` count it). A later reading starts it again.
    package func stop() {
        running.withLock { running in
            running?.stop()
            running = nil
        }
    }

    /// Stops the reading in progress, from any thread, and every later one: each throws `cancelled`.
    package func cancel() {
        cancelled.store(true, ordering: .relaxed)
        running.withLock { $0?.kill() }
    }

    /// The words of `image` (`TextRecognizer.words(of:seconds:)`, in the engine). Throws
    /// `tookTooLong` after `seconds` (and `grace`), `failed` when the engine stopped on it.
    package func words(of image: GreyImage, seconds: Double) throws(TextError) -> [RecognizedWord] {
        if cancelled.load(ordering: .relaxed) { throw .cancelled }
        let engine = try running.withLock { running throws(TextError) -> Running in
            if let running { return running }
            let started = try Running(executable: executable, languages: languages)
            running = started
            return started
        }
        let started = Date()
        do {
            let answer = try engine.read(image, seconds: seconds, until: started.addingTimeInterval(seconds + Self.grace))
            self.seconds += answer.seconds
            return answer.words
        } catch {
            self.seconds += Date().timeIntervalSince(started)
            running.withLock { running in
                running?.kill()
                running = nil
            }
            if cancelled.load(ordering: .relaxed) { throw .cancelled }
            switch error {
            case .timedOut: throw .tookTooLong(seconds: seconds)
            case .answered(let error): throw error
            case .stopped(let how): throw .failed("it stopped on this photo (\(how))")
            }
        }
    }

    /// This process's executable, by its name (`ps` shows the engine as `ingest`).
    package static var ownExecutable: FilePath {
        FilePath((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe")
    }

    /// The engine's side: reads requests on standard input and answers on standard output until
    /// standard input ends. Interrupts (Ctrl-C reaches the whole process group) are left to the
    /// `ingest` that started it, which stops its engines itself.
    package static func serve(languages: [String]) -> Int32 {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let requests = FileDescriptor.standardInput
        // Answers go out on a copy of standard output; anything a library prints goes to standard
        // error instead, not into an answer.
        guard let answers = try? FileDescriptor.standardOutput.duplicate(),
              (try? FileDescriptor.standardError.duplicate(as: .standardOutput)) != nil else { return 1 }
        let recognizer: TextRecognizer
        do {
            recognizer = try TextRecognizer(languages: languages)
        } catch {
            return (try? Wire.write(.failure(error), seconds: 0, to: answers)) == nil ? 1 : 0
        }
        guard (try? Wire.write(.words([]), seconds: 0, to: answers)) != nil else { return 1 }
        while let request = try? Wire.request(from: requests) {
            let clock = ThreadClock()
            let answer: Wire.Answer
            do {
                answer = .words(try recognizer.words(of: request.image, seconds: request.seconds))
            } catch {
                answer = .failure(error)
            }
            guard (try? Wire.write(answer, seconds: clock.seconds, to: answers)) != nil else { return 1 }
        }
        return 0
    }

    /// A pipe whose reader is gone fails the write (`EPIPE`) instead of ending the process.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}

/// Why a reading in the engine did not come back.
private enum EngineError: Error {
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
private final class Running: @unchecked Sendable {
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

/// What goes between `ingest` and its engine: a request is the image's width and height (two
/// 32-bit numbers), its seconds (a 64-bit float) and its pixels; an answer is its kind (a byte:
/// 0 words, 1 an error), the processor seconds spent (a 64-bit float), the length of its body (a
/// 32-bit number) and the body, JSON. Numbers in the machine's byte order: both ends are one binary.
private enum Wire {
    enum Answer {
        case words([RecognizedWord])
        case failure(TextError)
    }

    /// The engine's error, as the reader rethrows it.
    fileprivate struct Failure: Codable {
        var kind: String
        var detail: String?
        var seconds: Double?
    }

    static func send(_ image: GreyImage, seconds: Double, to requests: FileDescriptor) throws {
        var header = [UInt8]()
        append(UInt32(image.width), to: &header)
        append(UInt32(image.height), to: &header)
        append(seconds.bitPattern, to: &header)
        _ = try requests.writeAll(header)
        _ = try image.pixels.withUnsafeBytes { try requests.writeAll($0) }
    }

    static func request(from requests: FileDescriptor) throws -> (image: GreyImage, seconds: Double)? {
        let header = try requests.read(upTo: 16)
        guard header.count == 16 else { return nil }
        let (width, height) = (Int(number(UInt32.self, in: header, at: 0)), Int(number(UInt32.self, in: header, at: 4)))
        let seconds = Double(bitPattern: number(UInt64.self, in: header, at: 8))
        let pixels = try requests.read(upTo: width * height)
        guard pixels.count == width * height else { return nil }
        return (GreyImage(width: width, height: height, pixels: pixels), seconds)
    }

    static func write(_ answer: Answer, seconds: Double, to answers: FileDescriptor) throws {
        let (kind, body): (UInt8, Data) = switch answer {
        case .words(let words): (0, try JSONEncoder().encode(words))
        case .failure(let error): (1, try JSONEncoder().encode(Failure(error)))
        }
        var frame = [kind]
        append(seconds.bitPattern, to: &frame)
        append(UInt32(body.count), to: &frame)
        frame += body
        _ = try answers.writeAll(frame)
    }

    static func answer(from answers: FileDescriptor, until deadline: Date) throws(EngineError) -> (words: [RecognizedWord], seconds: Double) {
        let header = try read(13, from: answers, until: deadline)
        let seconds = Double(bitPattern: number(UInt64.self, in: header, at: 1))
        let body = Data(try read(Int(number(UInt32.self, in: header, at: 9)), from: answers, until: deadline))
        if header[0] == 0, let words = try? JSONDecoder().decode([RecognizedWord].self, from: body) { return (words, seconds) }
        guard let failure = try? JSONDecoder().decode(Failure.self, from: body) else { throw .stopped("it answered nonsense") }
        throw .answered(failure.error)
    }

    /// `count` bytes, waiting for them until `deadline`.
    private static func read(_ count: Int, from answers: FileDescriptor, until deadline: Date) throws(EngineError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timedOut }
            do {
                guard try answers.waitUntilReadable(milliseconds: Int32(min(left * 1000, 60_000).rounded(.up))) else { continue }
                let read = try bytes.withUnsafeMutableBytes { try answers.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                guard read > 0 else { throw EngineError.stopped("its output ended") }
                filled += read
            } catch let error as EngineError {
                throw error
            } catch {
                throw .stopped("its output failed: \(error)")
            }
        }
        return bytes
    }

    private static func append<Number: FixedWidthInteger>(_ number: Number, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: number) { bytes += $0 }
    }

    private static func number<Number: FixedWidthInteger>(_: Number.Type, in bytes: [UInt8], at offset: Int) -> Number {
        bytes[offset..<offset + MemoryLayout<Number>.size].withUnsafeBytes { $0.loadUnaligned(as: Number.self) }
    }
}

extension Wire.Failure {
    init(_ error: TextError) {
        switch error {
        case .missingLanguage(let language): self.init(kind: "missingLanguage", detail: language)
        case .cannotStart(let why): self.init(kind: "cannotStart", detail: why)
        case .tookTooLong(let seconds): self.init(kind: "tookTooLong", seconds: seconds)
        case .failed(let why): self.init(kind: "failed", detail: why)
        case .cancelled: self.init(kind: "cancelled")
        }
    }

    var error: TextError {
        switch kind {
        case "missingLanguage": .missingLanguage(detail ?? "")
        case "cannotStart": .cannotStart(detail ?? "")
        case "tookTooLong": .tookTooLong(seconds: seconds ?? 0)
        case "cancelled": .cancelled
        default: .failed(detail ?? kind)
        }
    }
}
