import CoreMetrics
import Foundation
import Metrics
import Prometheus
package import SystemPackage

/// ingest's metrics in Prometheus' text format. `bootstrap()` makes swift-metrics record into a
/// registry where every `MetricFamily` gets its name, `# HELP` line, labels and buckets
/// (Hummingbird's request metrics, recorded under its own names, renamed to ingest's); `text()`
/// renders what was recorded.
package final class MetricsExporter: Sendable {
    private let registry = PrometheusCollectorRegistry()

    private init() {}

    /// Bootstraps swift-metrics with a new exporter; once a process, before any metric is recorded.
    /// A run's counters of every outcome are made at once, at 0, so a rate over them is defined
    /// from the first scrape.
    package static func bootstrap() -> MetricsExporter {
        let exporter = MetricsExporter()
        MetricsSystem.bootstrap(RegistryFactory(registry: exporter.registry))
        _ = RunMetrics()
        return exporter
    }

    /// Everything recorded so far, in Prometheus' text format (version 0.0.4).
    package func text() -> String {
        registry.emitToString()
    }

    /// The text `text()` is served with.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Writes `text()` to `path` whole or not at all (built under a hidden name beside it, renamed
    /// over it), as node_exporter's textfile collector wants a file it may read at any time.
    package func write(to path: FilePath) throws {
        try FileOperations.write(Array(text().utf8), to: path, replacing: true)
    }
}

/// swift-metrics' factory over the registry: each family under its name, help and buckets.
private struct RegistryFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    /// The families by the label they are recorded under.
    private static let families: [String: MetricFamily] = Dictionary(
        MetricFamily.all.map { ($0.recordedAs?.label ?? $0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The family recorded as `label`, and its labels renamed; an unknown label gets a name fit for
    /// Prometheus and no help.
    private func describe(_ label: String, _ dimensions: [(String, String)]) -> (MetricNameDescriptor, [(String, String)], MetricFamily?) {
        guard let family = Self.families[label] else {
            return (MetricNameDescriptor(metricName: label, unitName: "", helpText: ""), dimensions, nil)
        }
        var labels = dimensions
        if let recorded = family.recordedAs {
            labels = dimensions.map { key, value in
                (recorded.labels.firstIndex(of: key).map { family.labels[$0] } ?? key, value)
            }
        }
        return (MetricNameDescriptor(metricName: family.name, unitName: "", helpText: family.help), labels, family)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let (descriptor, labels, _) = describe(label, dimensions)
        return registry.makeCounter(descriptor: descriptor, labels: labels)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        let (descriptor, labels, _) = describe(label, dimensions)
        return registry.makeCounter(descriptor: descriptor, labels: labels)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let (descriptor, labels, family) = describe(label, dimensions)
        guard aggregate else { return registry.makeGauge(descriptor: descriptor, labels: labels) }
        return registry.makeValueHistogram(descriptor: descriptor, labels: labels, buckets: family?.buckets ?? Self.buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        let (descriptor, labels, _) = describe(label, dimensions)
        return registry.makeGauge(descriptor: descriptor, labels: labels)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let (descriptor, labels, family) = describe(label, dimensions)
        let buckets = (family?.buckets ?? Self.buckets).map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) }
        return registry.makeDurationHistogram(descriptor: descriptor, labels: labels, buckets: buckets)
    }

    /// Buckets for a histogram no family describes, in seconds.
    private static let buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
