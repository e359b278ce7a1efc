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
        _ = try started()
    }

    /// The engine process, started where none runs (first, or after one was killed or crashed).
    private func started() throws(TextError) -> Running {
        try running.withLock { running throws(TextError) -> Running in
            if let running { return running }
            let started = try Running(executable: executable, languages: languages)
            running = started
            return started
        }
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
        let engine = try started()
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
