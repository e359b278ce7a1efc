package import Catalog
import Foundation
import Hummingbird
import HummingbirdCore
package import Logging
import NIOCore
import NIOHTTP1
package import Pipeline
package import ServiceLifecycle

/// `ingest serve`: the catalogue as web pages and a JSON API, with corrections, on Hummingbird.
///
/// Reads the catalogue as `ingest watch` writes it (SQLite WAL: readers never wait for the
/// writer), so each page shows the captures committed so far. Catalogue reads and file reads run on
/// NIO's thread pool for blocking work (`blocking`), never on the event loops or Swift's
/// cooperative threads. Each concern's routes are a collection of their own (`Routes/`).
package struct WebServer: Sendable {
    let settings: ServeSettings
    let catalogue: Catalogue
    /// The configuration: the library's folder, whose files are served by photo id (never by a path
    /// in the URL), and what `/readyz` checks.
    let config: PipelineConfig
    let logger: Logger
    /// What `/metrics` renders; nil, no `/metrics`.
    let metrics: MetricsExporter?
    let surface: Surface
    /// Whether set `name` is being ingested by a watch in this process (`serve --watch`).
    let ingesting: @Sendable (String) -> Bool
    /// Whether uploaded sets are ingested by this process (`serve --watch`) rather than by a watch beside it.
    let watching: Bool
    /// The capture flow's drafts (`/api/drafts`); nil for the monitoring surface.
    let drafts: DraftStore?
    let sessions = Sessions()
    let localCSRFToken = Sessions.randomToken()

    /// The routes a server has.
    package enum Surface: Sendable {
        /// Pages, API, files, health and metrics: `ingest serve`.
        case catalogue
        /// `/healthz`, `/readyz` and `/metrics` only: `ingest watch --metrics`.
        case monitoring
    }

    /// Throws when the drafts' folder cannot be made or the image libraries cannot start.
    package init(settings: ServeSettings, catalogue: Catalogue, config: PipelineConfig, logger: Logger,
                metrics: MetricsExporter? = nil, surface: Surface = .catalogue,
                ingesting: (@Sendable (String) -> Bool)? = nil) throws {
        self.settings = settings
        self.catalogue = catalogue
        self.config = config
        self.logger = logger
        self.metrics = metrics
        self.surface = surface
        self.ingesting = ingesting ?? { _ in false }
        watching = ingesting != nil
        drafts = surface == .catalogue ? try DraftStore(config: config, logger: logger) : nil
    }

    /// The server as a service of a `ServiceGroup` (which stops it gracefully: the requests in
    /// flight finish, uploads included). Sweeps the uploads a stopped server left unfinished first.
    /// Calls `onListening` with the URL once the port is open (the port the system picked, for port 0).
    package func service(onListening: @escaping @Sendable (String) -> Void) async throws -> some Service {
        if surface == .catalogue {
            let removed = try await blocking { [config] in try UploadStaging(config: config).sweep() }
            if removed > 0 { logger.notice("removed uploads a stopped server left unfinished", metadata: ["sets": "\(removed)"]) }
        }
        let limits = ConnectionClock.Limits(header: .seconds(config.http.headerSeconds), idle: .seconds(config.http.idleSeconds),
                                            body: .seconds(config.upload.idleSeconds + 5))
        let table = ConnectionTable(capacity: ConnectionTable.capacity(configured: config.http.maxConnections))
        if table.capacity < config.http.maxConnections {
            logger.notice("holding fewer connections than httpMaxConnections: the descriptor limit (ulimit -n) allows no more",
                          metadata: ["connections": "\(table.capacity)"])
        }
        let server = HTTPServerBuilder { responder in GuardedHTTPChannel(responder: responder, limits: limits, table: table) }
        return Application(router: router(), server: server,
                           configuration: .init(address: .hostname(settings.host, port: settings.port)),
                           onServerRunning: { [settings] channel in
                               onListening(settings.url(port: channel.localAddress?.port ?? settings.port))
                           }, logger: logger)
    }

    /// The service that removes drafts left untouched; nil for the monitoring surface.
    package var draftSweeper: DraftSweeper? { drafts.map { DraftSweeper(drafts: $0, logger: logger) } }

    /// What a request's head may hold (the decoder refuses more with 431, `ConnectionGuard`): far
    /// above what browsers and programs send, far below what would cost memory.
    static let headLimits: NIOHTTPDecoderLimitConfiguration = {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 16 << 10
        limits.maxHeaderListSize = 32 << 10
        limits.maxHeaderFieldCount = 100
        return limits
    }()

    /// Every route, behind the middlewares: security headers outermost (errors get them too), then
    /// the request metrics (which see the status errors become), errors turned into pages or JSON,
    /// and who may do what.
    func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeadersMiddleware())
        if metrics != nil { router.add(middleware: MetricsMiddleware()) }
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: AccessMiddleware(settings: settings, sessions: sessions, localCSRFToken: localCSRFToken))
        if surface == .catalogue {
            let corrections = Corrections(catalogue: catalogue, logger: logger)
            router.addRoutes(PageRoutes(catalogue: catalogue, readOnly: settings.readOnly).routes)
            router.addRoutes(SignInRoutes(settings: settings, sessions: sessions).routes)
            router.addRoutes(CorrectionRoutes(corrections: corrections).routes)
            router.addRoutes(APIRoutes(catalogue: catalogue, corrections: corrections, readOnly: settings.readOnly).routes,
                             atPath: "/api")
            router.addRoutes(UploadRoutes(catalogue: catalogue, config: config, logger: logger, readOnly: settings.readOnly,
                                          ingesting: ingesting, watching: watching).routes)
            if let drafts {
                router.addRoutes(DraftRoutes(drafts: drafts, catalogue: catalogue, logger: logger).routes, atPath: "/api/drafts")
            }
            router.addRoutes(FileRoutes(catalogue: catalogue, library: config.library).routes)
        }
        router.addRoutes(HealthRoutes(catalogue: catalogue, config: config, metrics: metrics).routes)
        return router
    }
}
