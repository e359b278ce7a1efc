import Catalog
import Dispatch
import Foundation
import Logging
import Synchronization

/// One sweep of the inbox: every set goes through the stages in order — analyse each photo, group
/// the set's new photos into captures, plan the set's commit, commit it.
///
/// A bounded pool of `workers` analyses photos concurrently; one serial writer queue groups, plans
/// and commits whole sets in inbox order while the next set is being analysed. At most `workers`
/// photos are decoded at once and at most two sets are in flight (being analysed, waiting for the
/// writer or being committed), so memory stays bounded whatever the inbox size.
public final class IngestRun: Sendable {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout
    private let grouper: CaptureGrouper
    private let planner: CommitPlanner
    private let stopRequested = Atomic(false)
    /// Called from worker threads after each photo and each set.
    private let onProgress: @Sendable (RunProgress) -> Void

    /// - Parameter onProgress: called from worker threads after each photo; must be quick and thread-safe.
    public init(config: PipelineConfig, catalogue: Catalogue, logger: Logger,
                onProgress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        self.onProgress = onProgress
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        grouper = CaptureGrouper(gapSeconds: config.groupGapSeconds, mode: config.grouping)
        planner = CommitPlanner(layout: layout, originals: config.originals)
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
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: layout.staging, logger: logger)
        let sets = sets.filter { !$0.files.isEmpty || !$0.skipped.isEmpty }
        let photos = sets.reduce(0) { $0 + $1.files.count }
        var run = try catalogue.startRun(inbox: config.inbox, startedAt: Self.timestamp(started))
        logger.info("run started", metadata: ["inbox": "\(config.inbox)", "sets": "\(sets.count)", "photos": "\(photos)"])

        let progress = ProgressCounter(photos: photos, sets: sets.count, started: started)
        let state = RunState()
        let workers = WorkerPool(label: "ingest.analyse", workers: config.workers)
        let writer = DispatchQueue(label: "ingest.commit")
        let setSlots = DispatchSemaphore(value: 2)
        let allCommitted = DispatchGroup()
        let runId = run.id
        for set in sets {
            setSlots.wait()
            guard state.stopReason == nil, !stopRequested.load(ordering: .relaxed) else {
                setSlots.signal()
                break
            }
            let setStarted = Date()
            let outcomes = analyse(set, on: workers, with: analyzer, progress: progress)
            allCommitted.enter()
            outcomes.analysed.notify(queue: writer) { [self] in
                defer {
                    setSlots.signal()
                    allCommitted.leave()
                }
                commitStage(set, outcomes.all, runId: runId, started: setStarted, committer: committer,
                            state: state, progress: progress)
            }
        }
        allCommitted.wait()
        var summary = state.summary
        summary.interrupted = stopRequested.load(ordering: .relaxed) && summary.sets.count < sets.count
        summary.seconds = Date().timeIntervalSince(started)
        try finish(&run, summary: &summary)
        return summary
    }

    /// Asks a running `run` to take no new set; sets being analysed or committed finish. Thread-safe.
    public func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    // MARK: Stages

    /// Stage 1: analyses the set's photos on the worker pool, at most `workers` at a time.
    private func analyse(_ set: PhotoSet, on workers: WorkerPool, with analyzer: PhotoAnalyzer,
                         progress: ProgressCounter) -> SetOutcomes {
        let outcomes = SetOutcomes(files: set.files)
        for (index, file) in set.files.enumerated() {
            workers.start(in: outcomes.analysed) { [self] in
                outcomes.store(analyzer.analyse(file, catalogued: catalogue.photo(withSHA256:)), at: index)
                onProgress(progress.photoDone())
            }
        }
        return outcomes
    }

    /// Stages 2 to 4 on the writer queue, with the run's bookkeeping: the set's report, or the
    /// reason the run must stop.
    private func commitStage(_ set: PhotoSet, _ outcomes: [PhotoOutcome], runId: Int64?, started: Date,
                             committer: SetCommitter, state: RunState, progress: ProgressCounter) {
        guard state.stopReason == nil else {
            outcomes.stagedThumbnails.forEach { unlink($0) }
            return
        }
        do {
            var report = try commit(set, outcomes, runId: runId, committer: committer)
            report.seconds = Date().timeIntervalSince(started)
            log(report)
            state.add(report)
            onProgress(progress.setDone())
        } catch {
            logger.critical("run stopped", metadata: ["set": "\(set.name)", "error": "\(error)"])
            state.stop(because: "\(error)")
        }
    }

    /// Stages 2 to 4 for one analysed set: group its new photos, plan its commit, commit it. A set
    /// with a file that changed while it was read waits in the inbox for the next run. Throws only
    /// what must stop the run.
    func commit(_ set: PhotoSet, _ outcomes: [PhotoOutcome], runId: Int64?, committer: SetCommitter) throws -> SetReport {
        if let reason = try CommitPlanner.reasonToWait(outcomes) {
            logger.warning("set not committed, it stays in the inbox", metadata: ["set": "\(set.name)", "reason": "\(reason)"])
            return committer.keepInInbox(set, thumbnails: outcomes.stagedThumbnails, reason: reason)
        }
        return try committer.commit(try plan(set, outcomes, runId: runId, committer: committer))
    }

    /// Stages 2 and 3: sorts out the set's new photos, groups them into captures, and plans the commit.
    func plan(_ set: PhotoSet, _ outcomes: [PhotoOutcome], runId: Int64?, committer: SetCommitter) throws -> CommitPlan {
        let triage = planner.triage(outcomes, known: try committer.knownPhotos(among: outcomes))
        let captures = grouper.group(SetEvidence.confirmed(triage.newPhotos))
        return planner.plan(set, triage: triage, captures: captures, context: set.readContext(), runId: runId)
    }

    /// Records the run's end and counts in the catalogue.
    private func finish(_ run: inout Run, summary: inout RunSummary) throws {
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
        CaptureTime(recording: date, fraction: true).iso8601
    }
}
