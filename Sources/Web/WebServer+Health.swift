import Foundation
import Hummingbird
import Pipeline

extension WebServer {
    /// What a supervisor or a load balancer asks: `/healthz`, whether the process answers at all;
    /// `/readyz`, whether it can do its work (`Readiness`), `503` with the failed checks when not.
    /// Both under the same access rules as every other route.
    func addHealth(to router: Router<WebContext>) {
        router.get("/healthz") { _, _ in
            Responses.json(["status": "up"])
        }
        router.get("/readyz") { _, _ in
            let readiness = try await blocking { [config, catalogue] in Readiness(config: config, catalogue: catalogue) }
            return Responses.json(readiness, status: readiness.ready ? .ok : .serviceUnavailable)
        }
    }
}
