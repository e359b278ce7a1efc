import Catalog
import Foundation
import Imaging
import Logging
import Pipeline

/// What a watch holds while it runs, for `ingest watch` and `ingest serve --watch`: the library's
/// lock, the catalogue (created when there is none yet), this process's worker session and the
/// inbox's watch, opened in that order and closed in reverse.
final class WatchLoop {
    let catalogue: Catalogue
    let watch: IngestWatch
    private let libraryLock: LibraryLock?
    private let worker: WorkerSession

    /// Opens everything a watch needs; exits 75 when another process holds the library (see `LockOptions`).
    init(config: PipelineConfig, logger: Logger, lock: LockOptions) throws {
        libraryLock = try lock.lockLibrary(config, logger: logger)
        do {
            catalogue = try Catalogue(config.catalogLocation, waitSeconds: config.catalogWaitSeconds, logger: logger)
        } catch {
            libraryLock?.release()
            throw error
        }
        do {
            worker = try WorkerSession.start(catalogue: catalogue, leaseSeconds: config.claimLeaseSeconds, logger: logger)
        } catch {
            try? catalogue.close()
            libraryLock?.release()
            throw error
        }
        let (catalogue, worker) = (catalogue, worker)
        do {
            watch = try Ingest.reportingUsageErrors {
                do {
                    return try IngestWatch(config: config, catalogue: catalogue, logger: logger, worker: worker)
                } catch let error as InboxWatchError {
                    throw UsageError(message: error.description)
                }
            }
        } catch {
            worker.end()
            try? catalogue.close()
            libraryLock?.release()
            throw error
        }
    }

    /// Runs the watch on a thread of its own; `finished` is called with what ended it (nil: a stop
    /// asked with `watch.requestStop()`). Returns a wait for the thread's end.
    func runInBackground(finished: @escaping @Sendable ((any Error)?) -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let watch = watch
        let thread = Thread {
            do {
                try watch.run()
                finished(nil)
            } catch {
                finished(error)
            }
            done.signal()
        }
        thread.name = "ingest-watch"
        thread.start()
        return done
    }

    /// Ends the worker session, closes the catalogue and releases the lock.
    func close() {
        worker.end()
        try? catalogue.close()
        libraryLock?.release()
    }
}
