import ArgumentParser
import Catalog
import Foundation
import Imaging
import Pipeline

extension Ingest {
    /// `ingest watch`: a foreground daemon that ingests each photo set as soon as it is complete.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Watches the inbox and ingests each photo set as soon as it is complete.",
            discussion: """
                A set is complete when nothing in it has changed for settleSeconds, or at once when its \
                readyMarker file appears. SIGTERM or SIGINT finish the sets in flight and exit 0; a second \
                signal, or the end of --grace-seconds, aborts with 143 or 130 and the next start recovers. \
                Exit codes: 0 stopped by a signal; 1 watching failed; 64 usage or configuration error; \
                75 another ingest run or watch holds the library.
                """
        )

        @OptionGroup var options: CommonOptions

        @OptionGroup var lock: LockOptions

        @Option(help: "Seconds the sets in flight may take to finish after SIGTERM or SIGINT before the watch aborts.")
        var graceSeconds = 30.0

        @Option(help: "HOST:PORT to serve /metrics (Prometheus), /healthz and /readyz on, as ingest serve's --listen.")
        var metrics: String?

        @Option(help: "The token a scraper sends (Authorization: Bearer) when --metrics is not loopback; INGEST_TOKEN is read when not given.")
        var token: String?

        func validate() throws {
            if !(graceSeconds >= 0) { throw ValidationError("--grace-seconds must be 0 or more.") }
        }

        func run() throws {
            let config = try Self.reportingUsageErrors { try options.loadConfig() }
            let exporter = metrics.map { _ in MetricsExporter.bootstrap() }
            ImageLibraries.keepFreedBuffersForReuse(workers: config.workers)
            let logger = options.bootstrapLogging()
            let loop = try WatchLoop(config: config, logger: logger, lock: lock)
            defer { loop.close() }
            let watch = loop.watch
            if let metrics, let exporter {
                let url = try Self.reportingUsageErrors {
                    try MetricsEndpoint.start(listen: metrics, token: token ?? ProcessInfo.processInfo.environment["INGEST_TOKEN"],
                                              config: config, catalogue: loop.catalogue, logger: logger, metrics: exporter)
                }
                // Unbuffered, as serve's: whoever started the watch reads the URL at once.
                FileHandle.standardOutput.write(Data("metrics at \(url)/metrics\n".utf8))
            }
            let signals = StopSignals(graceSeconds: graceSeconds, logger: logger) { watch.requestStop() }
            try withExtendedLifetime(signals) { try watch.run() }
        }
    }
}
