import Catalog
import Foundation
import Imaging
import Logging
import Synchronization

/// The words on the photos, read for `watch` and `serve --watch` on a thread of their own at the
/// lowest priority, one photo at a time, after each round of sets: the watch ingests the next
/// set at once, and the photos' text follows when the processor has time for it.
final class BackgroundTextReader: Sendable {
    private let reader: TextReader
    private let logger: Logger
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) {
        var config = config
        config.workers = 1
        reader = TextReader(config: config, catalogue: catalogue, logger: logger)
        self.logger = logger
        let thread = Thread { [self] in loop() }
        thread.name = "ingest.text"
        thread.start()
    }

    /// Sets were committed: their photos are read once the thread is free.
    func photosCommitted() {
        wake.signal()
    }

    /// Stops after the photo being read (stored) and returns once the thread has ended.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        reader.requestStop()
        wake.signal()
        finished.wait()
        reader.close()
    }

    private func loop() {
        defer { finished.signal() }
        // The lowest priority for this thread alone: the watch's own workers go first.
        TextRecognizer.lowerThisThreadsPriority()
        while true {
            wake.wait()
            while wake.wait(timeout: .now()) == .success {}  // several rounds: one reading
            guard !stopped.load(ordering: .relaxed) else { return }
            do {
                let report = try reader.readAll()
                if report.photos > 0 {
                    logger.info("text read", metadata: ["photos": "\(report.photos)", "words": "\(report.words)",
                                                        "givenUp": "\(report.givenUp)"])
                }
            } catch {
                logger.error("text not read", metadata: ["error": "\(error)"])
            }
        }
    }
}
