package import Catalog
import Foundation
import Imaging
package import Logging
import Synchronization

/// Reads the words on catalogued photos and stores them (`photo_text`), after their sets were
/// committed: for `ingest text`, and for `ingest run` and the watch once their sets are in.
///
/// Photos are read from their originals in the library by `workers` threads, each with its own
/// Tesseract in a process of its own (`TextEngine`). A photo is stored as soon as it is read, so a reading stopped at any point keeps
/// every photo read before it and reads none twice: the next reading starts where it stopped.
/// A photo that cannot be read (its original missing, over `textSeconds`) is stored as given up
/// with its reason, and not tried again unless the languages change (`redo`).
package final class TextReader: Sendable {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout
    private let stopRequested = Atomic(false)
    private let onProgress: @Sendable (RunProgress) -> Void
    /// Engines already started (about 0.3 s each), handed to one worker at a time; `all` of
    /// them, for `requestStop` to stop those reading.
    private let idle = Mutex<[TextEngine]>([])
    private let all = Mutex<[TextEngine]>([])

    /// How many photos one read of the catalogue fetches.
    static let batchSize = 64

    /// - Parameter onProgress: called from worker threads after each photo; must be quick and thread-safe.
    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger,
                 onProgress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        self.onProgress = onProgress
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    deinit {
        close()
    }

    private var languages: String { config.text.languages.joined(separator: "+") }

    /// Ends the engines (each is waited for, none outlives its reader); a later reading starts
    /// them again.
    package func close() {
        idle.withLock { $0 = [] }
        all.withLock { engines in
            engines.forEach { $0.stop() }
            engines = []
        }
    }

    /// Reads every photo still without text (with `redo`, also those read in other languages;
    /// with `runId`, only that run's). Each photo given up goes to `onFailure` from the calling
    /// thread, after the batch it was in. Throws when Tesseract cannot start (a language missing): nothing is read.
    package func readAll(redo: Bool = false, runId: Int64? = nil,
                         onFailure: (FileReport) -> Void = { _ in }) throws -> TextReport {
        let started = Date()
        let total = try catalogue.countPhotosWithoutText(languages: languages, redo: redo, runId: runId)
        var report = TextReport()
        guard total > 0 else { return report }
        giveBack(try takeEngine())
        let counter = ProgressCounter(photos: total, started: started)
        var after: String?
        while !stopRequested.load(ordering: .relaxed) {
            let batch = try catalogue.photosWithoutText(languages: languages, redo: redo, runId: runId, after: after,
                                                        limit: Self.batchSize)
            guard let last = batch.last else { break }
            after = last.id
            // Each photo stored as soon as it is read: a reading stopped later keeps it. The
            // catalogue's writer takes one at a time.
            let readOne = { @Sendable (photo: Photo) -> Result<PhotoText?, any Error> in
                defer { self.onProgress(counter.photoDone()) }
                guard !self.stopRequested.load(ordering: .relaxed), let text = self.read(photo) else { return .success(nil) }
                return Result { try self.catalogue.recordText(text) ? text : nil }
            }
            // One worker reads on the calling thread, whose priority the caller may have set.
            let results = config.workers == 1 ? batch.map(readOne) : WorkerPool.map(batch, workers: config.workers, readOne)
            for (photo, result) in zip(batch, results) {
                guard let text = try result.get() else { continue }
                report.photos += 1
                report.words += text.words.count
                report.seconds += text.seconds
                if text.state == .givenUp {
                    report.givenUp += 1
                    onFailure(FileReport(path: photo.originalPath, reason: text.reason ?? "given up", keptAt: nil))
                }
            }
            if batch.count < Self.batchSize { break }
        }
        report.elapsed = Date().timeIntervalSince(started)
        report.stopped = stopRequested.load(ordering: .relaxed)
        return report
    }

    /// Stops a reading in progress at once: the photos being read are left as they were (not
    /// read yet, for the next reading), every photo read before is stored.
    package func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
        all.withLock { $0.forEach { $0.cancel() } }
    }

    /// The words of `photo`, or why there are none; nil when the reading was stopped.
    private func read(_ photo: Photo) -> PhotoText? {
        let now = CaptureTime(recording: Date()).iso8601
        let engine: TextEngine
        do {
            engine = try takeEngine()
        } catch {
            return givenUp(photo, because: error, seconds: 0, at: now)
        }
        defer { giveBack(engine) }
        // The photo's cost: this thread's (the original decoded, its copies made) and the engine's.
        let (clock, engineSeconds) = (ThreadClock(), engine.seconds)
        var seconds: Double { clock.seconds + engine.seconds - engineSeconds }
        do {
            let original = try FileSnapshot.read(layout.absolute(photo.originalPath),
                                                 maxBytes: max(config.maxFileBytes, photo.byteSize))
            let reading = try TextReading(engine: engine, seconds: config.text.seconds).read(original.bytes)
            var text = PhotoText(photoId: photo.id, state: .read, languages: languages, quarterTurns: reading.quarterTurns,
                                 words: reading.words, seconds: 0, readAt: now)
            text.nutrition = NutritionTable.read(text.text.split(separator: "\n").map(String.init))
            if text.nutrition == nil { text.headline = PackageHeadline.of(text.words, width: photo.width, height: photo.height) }
            text.seconds = seconds
            return text
        } catch {
            return givenUp(photo, because: error, seconds: seconds, at: now)
        }
    }

    /// A photo given up for `error`; nil when the reading was stopped (`cancelled`).
    private func givenUp(_ photo: Photo, because error: any Error, seconds: Double, at now: String) -> PhotoText? {
        if case TextError.cancelled = error { return nil }
        logger.warning("text not read", metadata: ["photo": "\(photo.originalPath)", "error": "\(error)"])
        return PhotoText(photoId: photo.id, state: .givenUp, reason: "\(error)", languages: languages,
                         seconds: seconds, readAt: now)
    }

    private func takeEngine() throws -> TextEngine {
        if let engine = idle.withLock({ $0.popLast() }) { return engine }
        let engine = try TextEngine(languages: config.text.languages)
        all.withLock { $0.append(engine) }
        if stopRequested.load(ordering: .relaxed) { engine.cancel() }
        return engine
    }

    private func giveBack(_ engine: TextEngine) {
        idle.withLock { $0.append(engine) }
    }
}

/// What a reading of text did.
package struct TextReport: Sendable, Equatable {
    /// Photos read or given up.
    package var photos = 0
    package var givenUp = 0
    package var words = 0
    /// Processor seconds of the readings.
    package var seconds = 0.0
    /// Seconds from start to end.
    package var elapsed = 0.0
    /// Whether it stopped on request before every photo was read.
    package var stopped = false

    package init() {}
}

/// The processor time of the calling thread since it was made: a photo's own cost (with what its
/// engine reports), whatever the other workers do.
struct ThreadClock {
    private let start = Self.now()

    var seconds: Double { Self.now() - start }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
