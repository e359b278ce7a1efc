package import Catalog
import Dispatch
import Foundation
package import Logging
import Synchronization
import CoreMetrics

/// This process as one worker of its catalogue. With a shared (PostgreSQL) catalogue it registers
/// itself, claims each set before working on it (`Catalogue.claimSet`), and renews its lease and
/// its claims every third of `leaseSeconds` from a timer of its own, noting claims it lost
/// (another worker took them over after this one stopped renewing: paused, or cut off). With a
/// SQLite catalogue the library's lock makes it the only worker, and every claim is granted
/// without asking the database.
package final class WorkerSession: Sendable {
    /// `host-pid-random`: in every log line of the worker, and the name of its journal and
    /// staging folders in the library.
    package let id: String
    /// Whether other workers may share the inbox and the catalogue.
    package let isShared: Bool
    let catalogue: Catalogue
    let logger: Logger
    let leaseSeconds: Double
    /// The sets this worker holds, and those it lost to another worker.
    private let held = Mutex<Set<String>>([])
    private let lost = Mutex<Set<String>>([])
    private let renewal = Mutex<(any DispatchSourceTimer)?>(nil)
    private let claimsHeld = MetricFamily.claimsHeld.meter()
    private let claimsLost = MetricFamily.claimsLost.counter()

    private init(catalogue: Catalogue, leaseSeconds: Double, logger: Logger) {
        id = Self.makeId()
        isShared = catalogue.location.isShared
        self.catalogue = catalogue
        self.leaseSeconds = leaseSeconds
        var logger = logger
        logger[metadataKey: "worker"] = "\(id)"
        self.logger = logger
    }

    /// Starts a worker on `catalogue`: with a shared one, registers it and starts renewing its lease.
    package static func start(catalogue: Catalogue, leaseSeconds: Double, logger: Logger) throws -> WorkerSession {
        let session = WorkerSession(catalogue: catalogue, leaseSeconds: leaseSeconds, logger: logger)
        guard session.isShared else { return session }
        try catalogue.registerWorker(session.identity, leaseSeconds: leaseSeconds)
        session.startRenewing()
        session.logger.notice("worker started", metadata: ["catalogue": "\(catalogue.path)", "leaseSeconds": "\(Int(leaseSeconds))"])
        return session
    }

    /// A worker that never asks the catalogue (a SQLite one, under the library's lock): for runs
    /// built without a session.
    static func alone(catalogue: Catalogue, logger: Logger) -> WorkerSession {
        WorkerSession(catalogue: catalogue, leaseSeconds: 60, logger: logger)
    }

    /// The logger every line of this worker goes through: it carries the worker's id.
    package var workerLogger: Logger { logger }

    /// Claims the set `name`: granted at once without sharing.
    func claim(_ name: String) throws -> ClaimOutcome {
        guard isShared else { return .claimed(takenOverFrom: nil) }
        let outcome = try catalogue.claimSet(name, worker: id, leaseSeconds: leaseSeconds)
        if case .claimed = outcome {
            claimsHeld.set(held.withLock { $0.insert(name); return $0.count })
            lost.withLock { _ = $0.remove(name) }
        }
        return outcome
    }

    /// Lets the set `name` go; a failure is logged (the claim then lapses with the lease).
    func release(_ name: String) {
        guard isShared else { return }
        claimsHeld.set(held.withLock { $0.remove(name); return $0.count })
        do {
            try catalogue.releaseSet(name, worker: id)
        } catch {
            logger.warning("claim not released; it lapses", metadata: ["set": "\(name)", "error": "\(error)"])
        }
    }

    /// Whether this worker may still work on the set `name`: false once another took it over.
    func stillHolds(_ name: String) -> Bool {
        !lost.withLock { $0.contains(name) }
    }

    /// Whether another worker has the set `name` now, or had it since this one claimed it: the
    /// catalogue holds no claim of this worker's on it (another took it over, and perhaps has
    /// committed and let it go already). Asked after a commit failed; false without sharing, and
    /// when the catalogue cannot say.
    func hasLost(_ name: String) -> Bool {
        guard isShared else { return false }
        guard stillHolds(name) else { return true }
        do {
            return try catalogue.claimHolder(of: name) != id
        } catch {
            logger.warning("could not ask who holds the set", metadata: ["set": "\(name)", "error": "\(error)"])
            return false
        }
    }

    /// The claim a commit of the set `name` is made under; nil without sharing.
    func commitClaim(_ name: String) -> ClaimedSet? {
        isShared ? ClaimedSet(setName: name, worker: id) : nil
    }

    /// Of the per-worker folders `list` gives (named by worker id), those of workers whose lease
    /// has lapsed, and this worker's own when `own`. Listed first, then the live workers are
    /// asked: a worker registers before it makes its folders, so a folder seen is a live
    /// worker's only if a list fetched after it names that worker (fetched before, a worker
    /// starting in between lost its staging folder and failed all its photos).
    func goneWorkersFolders(_ list: () throws -> [String], own: Bool) throws -> [String] {
        let folders = try list()
        let live = try liveWorkers()
        return folders.filter { !live.contains($0) || (own && $0 == id) }
    }

    /// The ids of the workers whose lease has not lapsed (this one among them).
    func liveWorkers() throws -> Set<String> {
        guard isShared else { return [id] }
        let list = try catalogue.workers()
        return Set(list.workers.filter { $0.leaseUntil >= list.now }.map(\.id)).union([id])
    }

    /// Stops renewing and removes the worker and its claims from the catalogue. Thread-safe; a
    /// second call does nothing.
    package func end() {
        guard let timer = renewal.withLock({ timer -> (any DispatchSourceTimer)? in
            defer { timer = nil }
            return timer
        }) else { return }
        timer.cancel()
        do {
            try catalogue.endWorker(id)
            logger.info("worker stopped")
        } catch {
            logger.warning("worker not removed from the catalogue; its lease lapses", metadata: ["error": "\(error)"])
        }
    }

    private var identity: Worker {
        Worker(id: id, host: Self.host, pid: Int(getpid()), startedAt: CaptureTime(recording: Date(), fraction: false).iso8601)
    }

    private func startRenewing() {
        let interval = leaseSeconds / 3
        renewal.withLock { slot in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ingest.lease"))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [self] in renew() }
            timer.resume()
            slot = timer
        }
    }

    /// Renews the lease; notes the claims that are no longer this worker's.
    private func renew() {
        do {
            let (sets, registered) = try catalogue.renewLease(worker: id, leaseSeconds: leaseSeconds)
            if !registered { try catalogue.registerWorker(identity, leaseSeconds: leaseSeconds) }
            let gone = held.withLock { held in
                let gone = held.subtracting(sets)
                held.subtract(gone)
                claimsHeld.set(held.count)
                return gone
            }
            guard !gone.isEmpty else { return }
            claimsLost.increment(by: gone.count)
            lost.withLock { $0.formUnion(gone) }
            for set in gone.sorted() {
                logger.error("claim lost to another worker; the set is left to it", metadata: ["set": "\(set)"])
            }
        } catch {
            logger.warning("lease not renewed", metadata: ["error": "\(error)"])
        }
    }

    /// This machine's name, as a worker id may spell it.
    private static var host: String {
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        let kept = name.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return kept.isEmpty ? "host" : kept
    }

    private static func makeId() -> String {
        "\(host)-\(getpid())-\(String(UInt16.random(in: 0 ... .max), radix: 16))"
    }
}
