#if canImport(Web)
import ArgumentParser
import Catalog
import Foundation
import Pipeline
import Web

extension Ingest {
    /// `ingest serve`: the catalogue in a browser, with corrections.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serves the catalogue as web pages and a JSON API, with corrections, beside ingest watch.",
            discussion: """
                Listens on 127.0.0.1:8080 unless --listen says otherwise; any address but loopback needs a token \
                (--token or INGEST_TOKEN, 16 characters or more), with which a browser signs in once and a program \
                sends Authorization: Bearer TOKEN. Pages show captures as they are committed. /healthz, /readyz and \
                /metrics (Prometheus' text format) are for monitoring. Phones upload photo sets at /capture \
                (POST /api/sets); with --watch this process also ingests them, as ingest watch does. SIGTERM or \
                SIGINT finish the requests (and, with --watch, the sets) in flight and exit 0. Exit codes: 0 stopped \
                by a signal; 1 serving or watching failed (the port taken, …); 64 usage or configuration error; \
                75 (with --watch) another ingest run or watch holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(help: "HOST:PORT to listen on ([IPv6]:PORT; a port alone for 127.0.0.1; port 0 picks a free one).")
        var listen = "127.0.0.1:8080"

        @Option(help: "The token browsers sign in with and programs send; INGEST_TOKEN is read when not given (and stays out of ps).")
        var token: String?

        @Flag(help: "Turn every correction and upload off: pages and API only read.")
        var readOnly = false

        @Flag(help: "Also watch the inbox in this process, as ingest watch does: uploads are catalogued within seconds.")
        var watch = false

        @OptionGroup var lock: LockOptions

        func run() async throws {
            let settings: ServeSettings
            do {
                settings = try ServeSettings(listen: listen, token: token ?? ProcessInfo.processInfo.environment["INGEST_TOKEN"],
                                             readOnly: readOnly)
            } catch {
                throw ExitCode.validationFailure(saying: error.description)
            }
            let metrics = MetricsExporter.bootstrap()
            guard watch else {
                return try await withCommandContext(options) { context in
                    try await serve(WebServer(settings: settings, catalogue: context.catalogue, config: context.config,
                                              logger: context.logger, metrics: metrics), config: context.config)
                }
            }
            try await withCommandContext(options, .ingesting(lock)) { context in
                let loop = try WatchLoop(context)
                let server = WebServer(settings: settings, catalogue: context.catalogue, config: context.config, logger: context.logger,
                                       metrics: metrics, ingesting: loop.watch.isIngesting)
                let logger = context.logger
                let watching = Task {
                    do {
                        try await loop.run()
                    } catch {
                        // Serving uploads that nothing ingests would hide the failure: stop, and let the
                        // service manager restart the whole.
                        logger.critical("the watch stopped; ingest serve --watch exits", metadata: ["error": "\(error)"])
                        Foundation.exit(1)
                    }
                }
                // However serving ends, the sets in flight are committed before the catalogue closes.
                var failure: (any Error)?
                do {
                    try await serve(server, config: context.config)
                } catch {
                    failure = error
                }
                loop.watch.requestStop()
                await watching.value
                if let failure { throw failure }
            }
        }

        /// Serves until a signal stops the server.
        private func serve(_ server: WebServer, config: PipelineConfig) async throws {
            try await server.run { url in
                // Unbuffered: whoever started the server (a test, a script) reads the URL at once.
                let line = "serving \(config.catalog) at \(url)\(readOnly ? " (read-only)" : "")\(watch ? " and watching \(config.inbox)" : "")\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }
    }
}
#endif
