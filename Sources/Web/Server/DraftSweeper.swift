import Logging
import Pipeline
package import ServiceLifecycle

/// Removes the capture flow's drafts left untouched for `draftIdleMinutes`: at start, then once a
/// minute, until the service group shuts down.
package struct DraftSweeper: Service {
    let drafts: DraftStore
    let logger: Logger
    /// Between two sweeps.
    static let interval: Duration = .seconds(60)

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await blocking { [drafts] in try drafts.sweep() }
                    if removed > 0 { logger.notice("removed drafts left untouched", metadata: ["drafts": "\(removed)"]) }
                } catch {
                    logger.warning("drafts could not be swept; trying again in a minute", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: Self.interval)
            }
        }
    }
}
