import Metrics

/// What a run records of each set it is done with (`MetricFamily`), for Prometheus; nothing until
/// the executable bootstraps swift-metrics.
struct RunMetrics: Sendable {
    private let ingested = MetricFamily.photos.counter("ingested")
    private let duplicates = MetricFamily.photos.counter("duplicate")
    private let quarantined = MetricFamily.photos.counter("quarantined")
    private let failed = MetricFamily.photos.counter("failed")
    private let handedOver = MetricFamily.photos.counter("handed_over")
    private let sets: [SetReport.Outcome: Counter] = Dictionary(uniqueKeysWithValues: SetReport.Outcome.allCases.map {
        ($0, MetricFamily.sets.counter($0.rawValue))
    })
    private let captures = MetricFamily.captures.counter()
    let commitSeconds = MetricFamily.setSeconds.timer("commit")
    private let setSeconds = MetricFamily.setSeconds.timer("total")

    /// Counts `report`'s photos, captures and set by outcome, and its time.
    func record(_ report: SetReport) {
        ingested.increment(by: report.photos)
        duplicates.increment(by: report.duplicates.count)
        quarantined.increment(by: report.quarantined.count)
        failed.increment(by: report.failed.count)
        handedOver.increment(by: report.handedOver.count)
        captures.increment(by: report.captures)
        sets[report.outcome]?.increment()
        for file in report.quarantined {
            MetricFamily.quarantinedPhotos.counter(file.kind ?? "other").increment()
        }
        setSeconds.recordSeconds(report.seconds)
    }
}
