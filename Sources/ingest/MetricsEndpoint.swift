import ArgumentParser
import Foundation
import Logging
import Pipeline
import Synchronization
#if canImport(Web)
import ServiceLifecycle
import Web
#endif

/// `watch --metrics ADDRESS`: `/metrics`, `/healthz` and `/readyz` served beside the watch loop,
/// under `ingest serve`'s access rules (loopback without a token, any other address with one).
enum MetricsEndpoint {
    /// Starts serving the context's catalogue on Swift's concurrency threads until the process
    /// ends; returns once the port is open, with its URL. A bad address or token exits 64; what
    /// stopped the server from listening (the port taken) is thrown.
    static func start(listen: String, token: String?, context: CommandContext, metrics: MetricsExporter) async throws -> String {
        #if canImport(Web)
        let settings: ServeSettings
        do {
            settings = try ServeSettings(listen: listen, token: token, readOnly: true)
        } catch {
            throw ExitCode.validationFailure(saying: "--metrics: \(error)")
        }
        let server = try WebServer(settings: settings, catalogue: context.catalogue, config: context.config, logger: context.logger,
                               metrics: metrics, surface: .monitoring)
        let logger = context.logger
        return try await withCheckedThrowingContinuation { continuation in
            Task {
                // Told once: the URL when the port is open, or why it could not be.
                let waiting = Mutex<CheckedContinuation<String, any Error>?>(continuation)
                do {
                    try await server.service { url in
                        waiting.withLock { $0.take() }?.resume(returning: url)
                    }.run()
                } catch {
                    if let waiter = waiting.withLock({ $0.take() }) {
                        waiter.resume(throwing: MetricsEndpointError(listen: listen, reason: "\(error)"))
                    } else {
                        logger.error("the metrics endpoint stopped", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
        #else
        throw ExitCode.validationFailure(saying: "--metrics: this ingest was built without its HTTP server (INGEST_WITHOUT_WEB)")
        #endif
    }
}

/// `--metrics ADDRESS` could not be served: the address and why (the port taken, say).
struct MetricsEndpointError: Error, CustomStringConvertible {
    var listen: String
    var reason: String

    var description: String { "--metrics \(listen): cannot serve there: \(reason)" }
}
