import Catalog
import Foundation
import Hummingbird
import Pipeline

/// What a supervisor, a load balancer or Prometheus asks: `/healthz`, whether the process answers
/// at all; `/readyz`, whether it can do its work (`Readiness`), `503` with the failed checks when
/// not; `/metrics`, the metrics in Prometheus' text format, the gauges read afresh
/// (`ServiceGauges`). All under the same access rules as every other route.
struct HealthRoutes {
    let catalogue: Catalogue
    let config: PipelineConfig
    /// What `/metrics` renders; nil, no `/metrics`.
    let metrics: MetricsExporter?

    var routes: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.get("/healthz") { _, _ in
            Responses.json(["status": "up"])
        }
        routes.get("/readyz") { _, _ in
            let readiness = try await blocking { [config, catalogue] in Readiness(config: config, catalogue: catalogue) }
            return Responses.json(readiness, status: readiness.ready ? .ok : .serviceUnavailable)
        }
        guard let metrics else { return routes }
        routes.get("/metrics") { _, _ in
            let text = try await blocking { [config, catalogue] in
                ServiceGauges.refresh(config: config, catalogue: catalogue)
                return metrics.text()
            }
            return Responses.text(text, contentType: MetricsExporter.contentType)
        }
        return routes
    }
}
