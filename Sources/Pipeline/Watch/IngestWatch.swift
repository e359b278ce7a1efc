package import Catalog
import FileSystem
import Foundation
package import Logging
import Synchronization
internal import SystemPackage

/// `ingest watch`: ingests each photo set as soon as it is complete, until asked to stop.
///
/// Inotify events (`InboxWatcher`) say which sets change; a `SettleTracker` says when one is
/// complete — unchanged for `settleSeconds` with its files' sizes and times as they were, or marked
/// by `readyMarker`. Complete sets go through an `IngestRun`, several at a time when they settle
/// together. At start-up, every `rescanSeconds` and after lost events the inbox is swept for sets the
/// events did not show. The caller must hold the `LibraryLock` — or, with a shared catalogue,
/// several watches (and runs) share the inbox, each set ingested by the worker that claims it.
// @unchecked: `run()` alone drives the tracker and the runs, on its own thread; other threads only
// call `requestStop()`, which touches the atomic flag, the run's own stop and the watcher's wake-up.
package final class IngestWatch: @unchecked Sendable {
    private let config: PipelineConfig
    private let logger: Logger
    private let watcher: InboxWatcher
    private let ingest: IngestRun
    private var tracker: SettleTracker
    private let stopRequested = Atomic(false)
    /// The sets of the run in progress, for `isIngesting(_:)`.
    private let ingesting = Mutex<Set<String>>([])
    /// Told when the watch is ready, that it is alive (from the loop and after every photo), and
    /// when it stops: systemd's `Type=notify` and watchdog.
    private let notifier: ServiceNotifier
    /// Reads the words on the photos committed, in the background (`text` on).
    private let text: BackgroundTextReader?

    /// Starts watching the inbox; sets are ingested once `run()` is called. Throws
    /// `InboxWatchError` when the inbox cannot be watched.
    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger, worker: WorkerSession? = nil,
                notifier: ServiceNotifier = ServiceNotifier()) throws {
        self.config = config
        let logger = worker?.workerLogger ?? logger
        self.logger = logger
        self.notifier = notifier
        watcher = try InboxWatcher(inbox: config.inbox, readyMarker: config.readyMarker, logger: logger)
        ingest = IngestRun(config: config, catalogue: catalogue, logger: logger, worker: worker) { _ in notifier.alive() }
        tracker = SettleTracker(settleSeconds: config.settleSeconds)
        text = config.text.isOn ? BackgroundTextReader(config: config, catalogue: catalogue, logger: logger) : nil
    }

    /// Watches and ingests until `requestStop()`, then returns once the sets in flight are
    /// committed. Throws when watching cannot go on: the inbox went away, a run could not start,
    /// or a run stopped early (a full disk); sets not committed stay in the inbox.
    package func run() throws {
        logger.notice("watching the inbox", metadata: [
            "inbox": "\(config.inbox)", "folders": "\(watcher.watchedFolders)",
            "settleSeconds": "\(config.settleSeconds)", "readyMarker": "\(config.readyMarker)",
        ])
        notifier.ready(status: "watching \(config.inbox)")
        defer { notifier.stopping() }
        // The photos in the catalogue without text (a run with --no-text, text on since) first;
        // on the way out, the photo being read is stored before the watch returns.
        text?.photosCommitted()
        defer { text?.stop() }
        var nextSweep = clock()
        while !isStopRequested {
            notifier.alive()
            if clock() >= nextSweep {
                sweep(at: clock())
                nextSweep = clock() + config.rescanSeconds
            }
            try ingestReadySets(at: clock())
            let wakeAt = min(tracker.nextDeadline ?? .infinity, nextSweep, notifier.nextPing)
            let changes = try watcher.waitForChanges(timeout: wakeAt - clock())
            if note(changes, at: clock()) {
                logger.warning("inotify dropped events; sweeping the inbox")
                watcher.watchFolders()
                nextSweep = clock()
            }
        }
        let waiting = tracker.tracked
        logger.notice("stopped watching", metadata: waiting.isEmpty ? [:] : ["notYetComplete": "\(waiting.joined(separator: ","))"])
    }

    /// Takes no new set; sets being analysed or committed finish and `run()` returns. Thread-safe.
    package func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
        ingest.requestStop()
        watcher.wake()
    }

    /// Whether set `name` is being ingested now. Thread-safe.
    package func isIngesting(_ name: String) -> Bool {
        ingesting.withLock { $0.contains(name) }
    }

    /// Seconds on a monotonic clock, for the tracker: a wall-clock jump must not settle a set early.
    private func clock() -> Double {
        ServiceNotifier.clock()
    }

    private var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Feeds events to the tracker, listing each changed set once; true when events were lost.
    private func note(_ changes: [InboxWatcher.Change], at time: Double) -> Bool {
        var changed: [String] = []
        var overflowed = false
        for change in changes {
            switch change {
            case .changed(let set):
                if !changed.contains(set) { changed.append(set) }
            case .marked(let set):
                tracker.noteMarker(set: set)
            case .removed(let set):
                changed.removeAll { $0 == set }
                tracker.forget(set: set)
            case .overflow:
                overflowed = true
            }
        }
        for set in changed {
            let photos = try? photoSet(set)
            tracker.noteChange(set: set, at: time, stamps: photos.map(SetStamps.init(of:)))
            // A set moved in whole (an upload, `mv`) brings its marker without an event of its own.
            if let photos, !photos.files.isEmpty, FileOperations.exists(markerPath(photos)) { tracker.noteMarker(set: set) }
        }
        return overflowed
    }

    /// Every set folder of the inbox goes through the settle timer (or its marker) as if it had
    /// just changed, unless it holds nothing new.
    private func sweep(at time: Double) {
        let names: [String]
        do {
            names = try Directory.entries(of: config.inbox).filter { !$0.isHidden }.map(\.name)
        } catch {
            logger.error("cannot sweep the inbox", metadata: ["inbox": "\(config.inbox)", "error": "\(error)"])
            return
        }
        for name in names {
            guard let set = try? photoSet(name) else { continue }
            tracker.noteSwept(set: name, at: time, stamps: SetStamps(of: set))
            if !set.files.isEmpty, FileOperations.exists(markerPath(set)) { tracker.noteMarker(set: name) }
        }
        logger.debug("swept the inbox", metadata: ["settling": "\(tracker.tracked.joined(separator: ","))"])
    }

    /// Ingests the sets that have settled, in one run.
    private func ingestReadySets(at time: Double) throws {
        var settled: [PhotoSet] = []
        for name in tracker.ready(at: time) {
            guard let set = try? photoSet(name) else {
                tracker.forget(set: name)
                continue
            }
            switch tracker.confirm(set: name, stamps: SetStamps(of: set), at: time) {
            case .ingest: settled.append(set)
            case .wait: logger.info("set still changing; waiting again", metadata: ["set": "\(name)"])
            case .nothingNew: break
            }
        }
        guard !settled.isEmpty, !isStopRequested else { return }
        let marked = Set(settled.filter { FileOperations.exists(markerPath($0)) }.map(\.name))
        logger.info("sets complete, ingesting", metadata: ["sets": "\(settled.map(\.name).joined(separator: ","))",
                                                           "photos": "\(settled.reduce(0) { $0 + $1.files.count })"])
        ingesting.withLock { $0 = Set(settled.map(\.name)) }
        defer { ingesting.withLock { $0 = [] } }
        let summary = try ingest.run(sets: settled)
        if summary.photos > 0 { text?.photosCommitted() }
        // A set handed over to another worker is looked at again, as a failed one is: should that
        // worker stop too, its claim lapses and the set is this one's to take.
        for report in summary.sets where report.outcome == .committed {
            guard let set = settled.first(where: { $0.name == report.name }) else { continue }
            // A sweep that finds only what the ingest left (copy mode) has nothing new to do.
            tracker.noteIngested(set: set.name, remaining: SetStamps(of: set))
            if marked.contains(set.name) {
                try? FileOperations.remove(markerPath(set))
                FileOperations.removeEmptyFolders(set.folder, stoppingAt: config.inbox)
            }
        }
        if let reason = summary.stoppedEarly {
            throw IngestWatchError(message: "a run stopped early (\(reason)); its remaining sets stay in the inbox")
        }
    }

    /// The set folder `name` as it is now; throws when it is gone or no longer a folder (a symbolic
    /// link is not a set, as in `ingest run`).
    private func photoSet(_ name: String) throws -> PhotoSet {
        let folder = config.inbox.appending(name)
        guard (try? folder.stat(followTargetSymlink: false).type) == .directory else {
            throw FileOperationError(operation: "list", path: folder, code: ENOTDIR)
        }
        return try PhotoSet(name: name, folder: folder, keepingOut: KeptOutFolders(config))
    }

    private func markerPath(_ set: PhotoSet) -> FilePath {
        set.folder.appending(config.readyMarker)
    }
}
