import Catalog
import Foundation
import Logging
import Pipeline
import Synchronization
#if canImport(Web)
import Web
#endif

/// `watch --metrics ADDRESS`: `/metrics`, `/healthz` and `/readyz` served beside the watch loop,
/// under `ingest serve`'s access rules (loopback without a token, any other address with one).
enum MetricsEndpoint {
    /// Starts serving on Swift's concurrency threads until the process ends; returns once the port
    /// is open, with its URL. Throws a `UsageError` for a bad address or token, and what stopped the
    /// server from listening (the port taken).
    static func start(listen: String, token: String?, config: PipelineConfig, catalogue: Catalogue, logger: Logger,
                      metrics: MetricsExporter) throws -> String {
        #if canImport(Web)
        let settings: ServeSettings
        do {
            settings = try ServeSettings(listen: listen, token: token, readOnly: true)
        } catch {
            throw UsageError(message: "--metrics: \(error)")
        }
        let server = WebServer(settings: settings, catalogue: catalogue, config: config, logger: logger, metrics: metrics,
                               surface: .monitoring)
        let outcome = Mutex<Result<String, any Error>?>(nil)
        let settled = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run(stopsOnSignals: false) { url in
                    outcome.withLock { $0 = .success(url) }
                    settled.signal()
                }
            } catch {
                let first = outcome.withLock { result in
                    defer { result = result ?? .failure(error) }
                    return result == nil
                }
                if first { settled.signal() } else { logger.error("the metrics endpoint stopped", metadata: ["error": "\(error)"]) }
            }
        }
        settled.wait()
        do {
            return try outcome.withLock { $0 }!.get()
        } catch {
            throw MetricsEndpointError(listen: listen, reason: "\(error)")
        }
        #else
        throw UsageError(message: "--metrics: this ingest was built without its HTTP server (INGEST_WITHOUT_WEB)")
        #endif
    }
}

/// `--metrics ADDRESS` could not be served: the address and why (the port taken, say).
struct MetricsEndpointError: Error, CustomStringConvertible {
    var listen: String
    var reason: String

    var description: String { "--metrics \(listen): cannot serve there: \(reason)" }
}
