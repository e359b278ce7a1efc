import Dispatch
package import Metrics

/// The swift-metrics handles of a family's series, `values` giving its labels in `labels`' order.
/// Until the executable bootstraps swift-metrics (`MetricsExporter`) they record nothing.
extension MetricFamily {
    package func counter(_ values: String...) -> Counter {
        Counter(label: name, dimensions: dimensions(values))
    }

    package func timer(_ values: String...) -> Metrics.Timer {
        Metrics.Timer(label: name, dimensions: dimensions(values))
    }

    /// A gauge: set to a value, or moved up and down.
    package func meter(_ values: String...) -> Meter {
        Meter(label: name, dimensions: dimensions(values))
    }

    private func dimensions(_ values: [String]) -> [(String, String)] {
        precondition(values.count == labels.count, "\(name) has the labels \(labels)")
        return Array(zip(labels, values))
    }
}

extension Metrics.Timer {
    /// `body`'s result, its duration recorded.
    func time<T>(_ body: () throws -> T) rethrows -> T {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started)) }
        return try body()
    }
}
