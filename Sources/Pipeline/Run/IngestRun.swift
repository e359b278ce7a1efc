package import Catalog
import Dispatch
import FileSystem
import Foundation
package import Logging
import Synchronization
internal import SystemPackage

/// One sweep of the inbox: every set goes through the stages in order — analyse each photo, group
/// the set's new photos into captures, plan the set's commit, commit it.
///
/// A bounded pool of `workers` analyses photos concurrently; one serial writer queue groups, plans
/// and commits whole sets in inbox order while the next set is being analysed. At most `workers`
/// photos are decoded at once and at most two sets are in flight (being analysed, waiting for the
/// writer or being committed), so memory stays bounded whatever the inbox size.
package final class IngestRun: Sendable {
    let config: PipelineConfig
    private let catalogue: Catalogue
    let logger: Logger
    private let layout: LibraryLayout
    private let grouper: CaptureGrouper
    private let planner: CommitPlanner
    private let metrics = RunMetrics()
    /// This process as one of the catalogue's workers: it claims each set before analysing it.
    let worker: WorkerSession
    private let stopRequested = Atomic(false)
    /// Called from worker threads after each photo and each set.
    private let onProgress: @Sendable (RunProgress) -> Void

    /// - Parameters:
    ///   - worker: the worker this run is, sharing the inbox with others (a shared catalogue); by
    ///     default the only one (a SQLite catalogue, under the library's lock).
    ///   - onProgress: called from worker threads after each photo; must be quick and thread-safe.
    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger, worker: WorkerSession? = nil,
                onProgress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.config = config
        self.catalogue = catalogue
        self.worker = worker ?? .alone(catalogue: catalogue, logger: logger)
        self.logger = self.worker.workerLogger
        self.onProgress = onProgress
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        grouper = CaptureGrouper(gapSeconds: config.groupGapSeconds, mode: config.grouping)
        planner = CommitPlanner(layout: layout, originals: config.originals)
    }

    /// Sweeps the whole inbox. Throws when the run cannot start (inbox unreadable, library not
    /// writable); problems with single files or sets end up in the summary instead.
    package func run() throws -> RunSummary {
        try run(sets: PhotoSet.sets(inInbox: config.inbox, keepingOut: KeptOutFolders(config)))
    }

    /// Ingests `sets` (those with neither files nor anything to report are passed over), in order.
    package func run(sets: [PhotoSet]) throws -> RunSummary {
        let started = Date()
        for folder in [config.library, config.quarantine] { try FileOperations.makeDirectories(folder) }
        let committer = SetCommitter(config: config, layout: layout, catalogue: catalogue, logger: logger, worker: worker)
        try committer.recover()
        try FileOperations.makeDirectories(committer.stagingFolder)
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: committer.stagingFolder, logger: logger)
        let inFlight = try PhotosInFlight(layout: layout, worker: worker, inbox: config.inbox, logger: logger)
        defer { inFlight.close() }
        let sets = sets.filter { !$0.files.isEmpty || !$0.skipped.isEmpty }
        let photos = sets.reduce(0) { $0 + $1.files.count }
        var run = try catalogue.startRun(inbox: config.inbox.string, startedAt: Self.timestamp(started))
        logger.info("run started", metadata: ["inbox": "\(config.inbox)", "sets": "\(sets.count)", "photos": "\(photos)"])

        let pass = RunPass(run: self, committer: committer, analyzer: analyzer, inFlight: inFlight, runId: run.id,
                           progress: ProgressCounter(photos: photos, sets: sets.count, started: started))
        for listed in sets {
            guard pass.start(listed) else { break }
        }
        pass.takeOverLapsedClaims(every: min(1, config.claimLeaseSeconds / 3))
        let state = pass.finish()
        committer.tidy()
        var summary = state.summary
        summary.runId = run.id
        summary.interrupted = stopRequested.load(ordering: .relaxed) && summary.sets.count < sets.count
        summary.seconds = Date().timeIntervalSince(started)
        try finish(&run, summary: &summary)
        return summary
    }

    /// Asks a running `run` to take no new set; sets being analysed or committed finish. Thread-safe.
    package func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    /// Whether `requestStop()` was called.
    var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    // MARK: Stages

    /// What claiming a set gave.
    enum ClaimResult {
        /// The set, as it is in the inbox now, is this worker's.
        case mine(PhotoSet)
        /// Another worker holds it, until the time given unless it renews its claim.
        case elsewhere(holder: String, until: Double)
        /// Nothing to do: the set is gone or empty, or the run stops.
        case nothing
    }

    /// Claims `set` for this worker. With workers sharing the inbox the set is listed again once
    /// claimed (another may have ingested it since the run listed the inbox), after finishing or
    /// undoing the commit a worker whose claim lapsed left of it. A failure to claim stops the run.
    func claim(_ set: PhotoSet, committer: SetCommitter, state: RunState, times: ClaimTimes) -> ClaimResult {
        guard worker.isShared else { return .mine(set) }
        do {
            let started = Date()
            let outcome = try worker.claim(set.name)
            times.add(Date().timeIntervalSince(started))
            if case .held(let holder, let until) = outcome {
                logger.info("set claimed by another worker", metadata: ["set": "\(set.name)", "by": "\(holder)"])
                return .elsewhere(holder: holder, until: until)
            }
            guard case .claimed(let previous) = outcome else { return .nothing }
            if let previous {
                logger.notice("took over a set whose claim lapsed", metadata: ["set": "\(set.name)", "from": "\(previous)"])
                try committer.recover(set: set.name)
            }
            let fresh = try PhotoSet(name: set.name, folder: set.folder, keepingOut: KeptOutFolders(config))
            if fresh.files.isEmpty && fresh.skipped.isEmpty {
                worker.release(set.name)
                return .nothing
            }
            return .mine(fresh)
        } catch let error as FileOperationError where error.code == ENOENT {
            worker.release(set.name)
            return .nothing
        } catch {
            logger.critical("run stopped", metadata: ["set": "\(set.name)", "error": "\(error)"])
            state.stop(because: "\(error)")
            worker.release(set.name)
            return .nothing
        }
    }

    /// Stage 1: analyses the set's photos on the worker pool, at most `workers` at a time, each
    /// noted in flight meanwhile; one the process died twice while reading is quarantined unread.
    func analyse(_ set: PhotoSet, on workers: WorkerPool, with analyzer: PhotoAnalyzer, inFlight: PhotosInFlight,
                 progress: ProgressCounter) -> SetOutcomes {
        let outcomes = SetOutcomes(files: set.files)
        for (index, file) in set.files.enumerated() {
            workers.start(in: outcomes.analysed) { [self] in
                if case .poison(let reason) = inFlight.verdict(on: file) {
                    logger.error("photo quarantined unread", metadata: ["file": "\(file.setName)/\(file.relativePath)", "reason": "\(reason)"])
                    outcomes.store(.rejected(file, .killedTheProcess(reason)), at: index)
                } else {
                    outcomes.store(inFlight.reading(file) { analyzer.analyse(file, catalogued: catalogue.photo(withSHA256:)) }, at: index)
                }
                onProgress(progress.photoDone())
            }
        }
        return outcomes
    }

    /// Stages 2 to 4 on the writer queue, with the run's bookkeeping: the set's report, or the
    /// reason the run must stop.
    func commitStage(_ set: PhotoSet, _ outcomes: [PhotoOutcome], runId: Int64?, started: Date,
                             committer: SetCommitter, state: RunState, progress: ProgressCounter) {
        guard state.stopReason == nil else {
            outcomes.stagedThumbnails.forEach { try? $0.remove() }
            return
        }
        do {
            var report = try metrics.commitSeconds.time { try commit(set, outcomes, runId: runId, committer: committer) }
            report.seconds = Date().timeIntervalSince(started)
            log(report)
            metrics.record(report)
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
            // A file that changed or went while it was read may be the doing of a worker that took
            // the set over meanwhile (and committed it): then the set is that worker's, not a failure.
            return committer.notCommitted(set, thumbnails: outcomes.stagedThumbnails, reason: reason)
        }
        // Another worker may commit one of the set's photos between this set's plan and its
        // commit: the catalogue's unique index refuses the second, and the set is planned again,
        // that photo now a duplicate.
        for attempt in 1 ... 3 {
            do {
                return try committer.commit(try plan(set, outcomes, runId: runId, committer: committer))
            } catch let race as SetCommitter.LostRace {
                logger.notice("planning the set again", metadata: ["set": "\(set.name)", "reason": "\(race)", "attempt": "\(attempt)"])
                if attempt == 3 { return committer.keepInInbox(set, thumbnails: outcomes.stagedThumbnails, reason: "\(race)") }
            }
        }
        preconditionFailure("the last attempt returns")
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
        logger.notice("\(report.outcome.message)", metadata: [
            "set": "\(report.name)", "captures": "\(report.captures)", "photos": "\(report.photos)",
            "duplicates": "\(report.duplicates.count)", "quarantined": "\(report.quarantined.count)",
            "failed": "\(report.failed.count)", "handedOver": "\(report.handedOver.count)",
            "seconds": "\(String(format: "%.2f", report.seconds))",
        ])
    }

    static func timestamp(_ date: Date) -> String {
        CaptureTime(recording: date, fraction: true).iso8601
    }
}
