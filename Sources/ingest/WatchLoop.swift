import ArgumentParser
import Foundation
import Pipeline

/// The inbox's watch for `ingest watch` and `ingest serve --watch`, over a context opened for
/// ingesting (the lock, the catalogue, the worker session).
final class WatchLoop: Sendable {
    let watch: IngestWatch

    /// Starts watching the inbox; an inbox that cannot be watched (inotify's limits reached, say)
    /// exits 64, as a configuration problem.
    init(_ context: CommandContext) throws {
        do {
            watch = try IngestWatch(config: context.config, catalogue: context.catalogue, logger: context.logger,
                                    worker: context.worker)
        } catch let error as InboxWatchError {
            throw ExitCode.validationFailure(saying: error.description)
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
}
