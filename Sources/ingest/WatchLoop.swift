import ArgumentParser
import Foundation
import Pipeline

/// The inbox's watch for `ingest watch` and `ingest serve --watch`, over a context opened for
/// ingesting (the lock, the catalogue, the worker session). The watch blocks its thread for as
/// long as it runs, so it gets a thread of its own, which the command awaits.
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

    /// Watches and ingests, on a thread of its own, until `watch.requestStop()` (one asked before
    /// the thread starts counts too), then returns once the sets in flight are committed. Throws
    /// what ended the watch otherwise: the inbox gone, a full disk.
    func run() async throws {
        let watch = watch
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try watch.run()
                    finished.resume()
                } catch {
                    finished.resume(throwing: error)
                }
            }
            thread.name = "ingest-watch"
            thread.start()
        }
    }
}
