import Dispatch
import Foundation
import Logging

/// One run's way through its sets, on the thread that feeds the pool: each set is claimed (when
/// workers share the inbox), analysed on the pool — at most two sets in flight — and committed
/// by the serial writer. Sets other workers hold are kept aside: once their claims lapse (the
/// worker was killed or cut off), the run takes them over.
final class RunPass {
    private let run: IngestRun
    private let committer: SetCommitter
    private let analyzer: PhotoAnalyzer
    private let inFlight: PhotosInFlight
    private let runId: Int64?
    private let progress: ProgressCounter
    private let state = RunState()
    private let workers: WorkerPool
    private let writer = DispatchQueue(label: "ingest.commit")
    private let setSlots = DispatchSemaphore(value: 2)
    private let allCommitted = DispatchGroup()
    private let claimTimes = ClaimTimes()
    /// The sets other workers hold, by name: which worker, and until when.
    private var elsewhere: [String: (set: PhotoSet, holder: String, until: Double)] = [:]

    init(run: IngestRun, committer: SetCommitter, analyzer: PhotoAnalyzer, inFlight: PhotosInFlight, runId: Int64?,
         progress: ProgressCounter) {
        self.run = run
        self.committer = committer
        self.analyzer = analyzer
        self.inFlight = inFlight
        self.runId = runId
        self.progress = progress
        workers = WorkerPool(label: "ingest.analyse", workers: run.config.workers)
    }

    /// Claims `listed` and starts its analysis, once a set slot is free; false once the run takes
    /// no more sets (asked to stop, or stopping for lack of space).
    func start(_ listed: PhotoSet) -> Bool {
        setSlots.wait()
        guard state.stopReason == nil, !run.isStopRequested else {
            setSlots.signal()
            return false
        }
        let started = Date()
        let set: PhotoSet
        switch run.claim(listed, committer: committer, state: state, times: claimTimes) {
        case .mine(let claimed):
            set = claimed
        case .elsewhere(let holder, let until):
            elsewhere[listed.name] = (listed, holder, until)
            setSlots.signal()
            return true
        case .nothing:
            setSlots.signal()
            return true
        }
        let outcomes = run.analyse(set, on: workers, with: analyzer, inFlight: inFlight, progress: progress)
        allCommitted.enter()
        outcomes.analysed.notify(queue: writer) { [run, committer, runId, state, progress, setSlots, allCommitted] in
            defer {
                run.worker.release(set.name)
                setSlots.signal()
                allCommitted.leave()
            }
            run.commitStage(set, outcomes.all, runId: runId, started: started, committer: committer, state: state, progress: progress)
        }
        return true
    }

    /// Tries the sets other workers held again every `interval` seconds, until each is done by
    /// its holder or taken over: a holder that renewed its claim (or a new holder) is alive, and
    /// the set is its own; one that did not renew it is waited for until its claim lapses.
    func takeOverLapsedClaims(every interval: Double) {
        while !elsewhere.isEmpty, state.stopReason == nil, !run.isStopRequested {
            Thread.sleep(forTimeInterval: interval)
            let previous = elsewhere
            elsewhere = [:]
            for (name, entry) in previous {
                guard start(entry.set) else { return }
                if let now = elsewhere[name], now.holder != entry.holder || now.until > entry.until { elsewhere[name] = nil }
            }
        }
    }

    /// Waits for the sets in flight to be committed; what the writer did.
    func finish() -> RunState {
        allCommitted.wait()
        if run.worker.isShared { run.logger.info("sets claimed", metadata: claimTimes.metadata) }
        return state
    }
}
