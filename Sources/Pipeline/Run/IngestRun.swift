import Catalog
import Dispatch
import Foundation
import Logging

/// One sweep of the inbox: every set is analysed, grouped and committed.
///
/// A bounded pool of `workers` analyses photos concurrently, one serial writer queue commits whole
/// sets in inbox order while the next set is being analysed. At most `workers` photos are decoded
/// and at most two analysed sets wait for the writer, so memory stays bounded whatever the inbox size.
public final class IngestRun {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout
    private let stopRequest = StopRequest()

    /// Called from worker threads after each photo; must be quick and thread-safe.
    public var onProgress: (@Sendable (RunProgress) -> Void)?

    public init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    /// Sweeps the whole inbox. Throws when the run cannot start (inbox unreadable, library not
    /// writable); problems with single files or sets end up in the summary instead.
    public func run() throws -> RunSummary {
        try run(sets: PhotoSet.sets(inInbox: config.inbox))
    }

    /// Ingests `sets` (those with neither files nor anything to report are passed over), in order.
    public func run(sets: [PhotoSet]) throws -> RunSummary {
        let started = Date()
        for folder in [config.library, config.quarantine] { try FileOperations.makeDirectories(folder) }
        let committer = SetCommitter(config: config, layout: layout, catalogue: catalogue, logger: logger)
        try committer.recover()
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: layout.staging)
        let sets = sets.filter { !$0.files.isEmpty || !$0.skipped.isEmpty }
        let progress = ProgressCounter(photos: sets.reduce(0) { $0 + $1.files.count }, sets: sets.count, started: started)
        var run = try catalogue.startRun(inbox: config.inbox, startedAt: Self.timestamp(started))
        logger.info("run started", metadata: ["inbox": "\(config.inbox)", "sets": "\(sets.count)",
                                              "photos": "\(sets.reduce(0) { $0 + $1.files.count })"])

        let state = RunState()
        let analyse = DispatchQueue(label: "ingest.analyse", attributes: .concurrent)
        let writer = DispatchQueue(label: "ingest.commit")
        let photoSlots = DispatchSemaphore(value: max(1, config.workers))
        let setSlots = DispatchSemaphore(value: 2)
        let allCommitted = DispatchGroup()

        for set in sets {
            setSlots.wait()
            if state.stopReason != nil || stopRequest.isRequested {
                setSlots.signal()
                break
            }
            let setStarted = Date()
            let results = ResultSlots(files: set.files)
            let analysed = DispatchGroup()
            for (index, file) in set.files.enumerated() {
                photoSlots.wait()
                analysed.enter()
                analyse.async {
                    results.store(analyzer.analyse(file, catalogued: self.catalogue.photo(withSHA256:)), at: index)
                    photoSlots.signal()
                    self.onProgress?(progress.photoDone())
                    analysed.leave()
                }
            }
            allCommitted.enter()
            analysed.notify(queue: writer) { [self] in
                defer {
                    setSlots.signal()
                    allCommitted.leave()
                }
                guard state.stopReason == nil else {
                    results.all.forEach { if case .analysed(let photo) = $0 { unlink(photo.thumbnail.path) } }
                    return
                }
                do {
                    var report = try committer.commit(set, results: results.all, runId: run.id)
                    report.seconds = Date().timeIntervalSince(setStarted)
                    log(report)
                    state.add(report)
                    onProgress?(progress.setDone())
                } catch {
                    logger.critical("run stopped", metadata: ["set": "\(set.name)", "error": "\(error)"])
                    state.stop(because: "\(error)")
                }
            }
        }
        allCommitted.wait()

        var summary = state.summary
        summary.interrupted = stopRequest.isRequested && summary.sets.count < sets.count
        summary.seconds = Date().timeIntervalSince(started)
        run.finishedAt = Self.timestamp(Date())
        run.sets = summary.sets.count
        run.captures = summary.captures
        run.photos = summary.photos
        run.duplicates = summary.duplicates.count
        run.quarantined = summary.quarantined.count
        run.failed = summary.failed.count
        do {
            try catalogue.finishRun(run)
        } catch let error as CatalogError where error.isStorageFailure {
            // The sets are committed or in the inbox either way; only the run's own row misses its end.
            logger.error("the run's end could not be recorded", metadata: ["error": "\(error)"])
            summary.stoppedEarly = summary.stoppedEarly ?? "\(error)"
        }
        return summary
    }

    /// Asks a running `run` to take no new set; sets being analysed or committed finish. Thread-safe.
    public func requestStop() {
        stopRequest.request()
    }

    private func log(_ report: SetReport) {
        // At notice, the default level: without a terminal's progress line these are the run's heartbeat.
        logger.notice("set committed", metadata: [
            "set": "\(report.name)", "captures": "\(report.captures)", "photos": "\(report.photos)",
            "duplicates": "\(report.duplicates.count)", "quarantined": "\(report.quarantined.count)",
            "failed": "\(report.failed.count)", "seconds": "\(String(format: "%.2f", report.seconds))",
        ])
    }

    static func timestamp(_ date: Date) -> String {
        CaptureTime(utc: date.timeIntervalSince1970, offsetSeconds: 0, hasFraction: true, source: .fileTime).iso8601
    }
}

/// The analyses of one set, filled in by the workers in any order.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [PhotoOutcome?]
    private let files: [InboxFile]

    init(files: [InboxFile]) {
        self.files = files
        slots = Array(repeating: nil, count: files.count)
    }

    func store(_ result: PhotoOutcome, at index: Int) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    /// Every result, in file order; call once all workers have finished.
    var all: [PhotoOutcome] {
        lock.lock()
        defer { lock.unlock() }
        return slots.enumerated().map { $1 ?? .rejected(files[$0], .library("not analysed")) }
    }
}

/// What the writer has done so far, shared with the loop that feeds the workers.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [SetReport] = []
    private var reason: String?

    var stopReason: String? {
        lock.lock()
        defer { lock.unlock() }
        return reason
    }

    func stop(because reason: String) {
        lock.lock()
        self.reason = self.reason ?? reason
        lock.unlock()
    }

    func add(_ report: SetReport) {
        lock.lock()
        reports.append(report)
        lock.unlock()
    }

    var summary: RunSummary {
        lock.lock()
        defer { lock.unlock() }
        var summary = RunSummary()
        summary.sets = reports
        summary.stoppedEarly = reason
        return summary
    }
}

private final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false

    var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    func request() {
        lock.lock()
        requested = true
        lock.unlock()
    }
}
