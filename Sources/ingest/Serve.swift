#if canImport(Web)
import ArgumentParser
import Foundation
import Logging
import Pipeline
import ServiceLifecycle
import UnixSignals
import Web

extension Ingest {
    /// `ingest serve`: the catalogue in a browser, with corrections.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serves the catalogue as web pages and a JSON API, with corrections, beside ingest watch.",
            discussion: """
                Listens on 127.0.0.1:8080 unless --listen says otherwise; any address but loopback needs a token \
                (--token or INGEST_TOKEN, 16 characters or more), with which a browser signs in once and a program \
                sends Authorization: Bearer TOKEN. A request whose Host is not localhost, 127.0.0.1, [::1], the --listen \
                address (on 0.0.0.0 or ::, this machine's addresses and name) or an --allowed-host gets 403. Pages show \
                captures as they are committed. /healthz, /readyz and \
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

        @Option(name: .customLong("allowed-host"),
                help: "A name the server also answers to in the Host header (repeatable): what a reverse proxy forwards.")
        var allowedHosts: [String] = []

        @Flag(help: "Turn every correction and upload off: pages and API only read.")
        var readOnly = false

        @Flag(help: "Also watch the inbox in this process, as ingest watch does: uploads are catalogued within seconds.")
        var watch = false

        @OptionGroup var lock: LockOptions

        func run() async throws {
            let settings: ServeSettings
            do {
                settings = try ServeSettings(listen: listen, token: token ?? ProcessInfo.processInfo.environment["INGEST_TOKEN"],
                                             readOnly: readOnly, allowedHosts: allowedHosts)
            } catch {
                throw ExitCode.validationFailure(saying: error.description)
            }
            let metrics = MetricsExporter.bootstrap()
            guard watch else {
                return try await withCommandContext(options) { context in
                    let server = try WebServer(settings: settings, catalogue: context.catalogue, config: context.config,
                                           logger: context.logger, metrics: metrics)
                    try await serve([.init(service: server.service(onListening: announce(context.config)))]
                                    + (server.draftSweeper.map { [.init(service: $0)] } ?? []), logger: context.logger)
                }
            }
            try await withCommandContext(options, .ingesting(lock)) { context in
                let loop = try WatchLoop(context)
                let server = try WebServer(settings: settings, catalogue: context.catalogue, config: context.config, logger: context.logger,
                                       metrics: metrics, ingesting: loop.watch.isIngesting)
                // A graceful shutdown stops the services last to first: the server's requests in flight
                // (uploads) finish, then the watch commits the set in flight. A watch that fails stops
                // the server too (uploads that nothing ingests would hide the failure) and exits 1.
                try await serve([
                    .init(service: WatchService(loop: loop, logger: context.logger),
                          successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: server.service(onListening: announce(context.config)),
                          successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                ] + (server.draftSweeper.map { [.init(service: $0)] } ?? []), logger: context.logger)
            }
        }

        /// Runs `services` as one group until SIGTERM or SIGINT stops it gracefully.
        private func serve(_ services: [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger) async throws {
            var configuration = ServiceGroupConfiguration(services: services, logger: logger)
            configuration.gracefulShutdownSignals = [.sigterm, .sigint]
            try await ServiceGroup(configuration: configuration).run()
        }

        /// Prints the URL once the port is open, unbuffered: whoever started the server (a test, a
        /// script) reads it at once.
        private func announce(_ config: PipelineConfig) -> @Sendable (String) -> Void {
            let suffix = (readOnly ? " (read-only)" : "") + (watch ? " and watching \(config.inbox)" : "")
            return { url in FileHandle.standardOutput.write(Data("serving \(config.catalog) at \(url)\(suffix)\n".utf8)) }
        }
    }
}

/// The inbox's watch as a service of `serve --watch`'s group: a graceful shutdown asks it to stop,
/// and it returns once the sets in flight are committed.
struct WatchService: Service {
    let loop: WatchLoop
    let logger: Logger

    func run() async throws {
        do {
            try await withGracefulShutdownHandler {
                try await loop.run()
            } onGracefulShutdown: { [loop] in
                loop.watch.requestStop()
            }
        } catch {
            logger.critical("the watch stopped; ingest serve --watch exits", metadata: ["error": "\(error)"])
            throw error
        }
    }
}
#endif
