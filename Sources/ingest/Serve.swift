#if canImport(Web)
import ArgumentParser
import Catalog
import Foundation
import Pipeline
import Synchronization
import Web

extension Ingest {
    /// `ingest serve`: the catalogue in a browser, with corrections.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serves the catalogue as web pages and a JSON API, with corrections, beside ingest watch.",
            discussion: """
                Listens on 127.0.0.1:8080 unless --listen says otherwise; any address but loopback needs a token \
                (--token or INGEST_TOKEN, 16 characters or more), with which a browser signs in once and a program \
                sends Authorization: Bearer TOKEN. Pages show captures as they are committed. /healthz, /readyz and \
                /metrics (Prometheus' text format) are for monitoring. SIGTERM or SIGINT \
                finish the requests in flight and exit 0. Exit codes: 0 stopped by a signal; 1 serving failed \
                (the port taken, …); 64 usage or configuration error.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "HOST:PORT to listen on ([IPv6]:PORT; a port alone for 127.0.0.1; port 0 picks a free one).")
        var listen = "127.0.0.1:8080"

        @Option(help: "The token browsers sign in with and programs send; INGEST_TOKEN is read when not given (and stays out of ps).")
        var token: String?

        @Flag(help: "Turn every correction off: pages and API only read.")
        var readOnly = false

        func run() throws {
            let settings = try Self.reportingUsageErrors { () throws -> ServeSettings in
                do {
                    return try ServeSettings(listen: listen, token: token ?? ProcessInfo.processInfo.environment["INGEST_TOKEN"],
                                             readOnly: readOnly)
                } catch let error as ServeSettingsError {
                    throw UsageError(message: error.description)
                }
            }
            let metrics = MetricsExporter.bootstrap()
            let (config, logger, catalogue) = try options.openCatalogue()
            defer { try? catalogue.close() }
            let server = WebServer(settings: settings, catalogue: catalogue, config: config, logger: logger, metrics: metrics)
            try Self.waiting {
                try await server.run { url in
                    // Unbuffered: whoever started the server (a test, a script) reads the URL at once.
                    let line = "serving \(config.catalog) at \(url)\(settings.readOnly ? " (read-only)" : "")\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            }
        }

        /// Runs `body` on Swift's concurrency threads and waits for it on this one: the command's
        /// `run()` is synchronous, as every other command's.
        static func waiting(_ body: @escaping @Sendable () async throws -> Void) throws {
            let outcome = Mutex<Result<Void, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let result: Result<Void, any Error>
                do {
                    try await body()
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            try outcome.withLock { $0 }?.get()
        }
    }
}
#endif
