import ArgumentParser
import Foundation
import Pipeline

extension Ingest {
    /// `ingest watch`: a foreground daemon that ingests each photo set as soon as it is complete.
    struct Watch: AsyncParsableCommand {
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

        func run() async throws {
            let exporter = metrics.map { _ in MetricsExporter.bootstrap() }
            try await withCommandContext(options, .ingesting(lock)) { context in
                let loop = try WatchLoop(context)
                if let metrics, let exporter {
                    let token = token ?? ProcessInfo.processInfo.environment["INGEST_TOKEN"]
                    let url = try await MetricsEndpoint.start(listen: metrics, token: token, context: context, metrics: exporter)
                    // Unbuffered, as serve's: whoever started the watch reads the URL at once.
                    FileHandle.standardOutput.write(Data("metrics at \(url)/metrics\n".utf8))
                }
                let signals = StopSignals(graceSeconds: graceSeconds, logger: context.logger) { loop.watch.requestStop() }
                defer { withExtendedLifetime(signals) {} }
                try await loop.run()
            }
        }
    }
}
