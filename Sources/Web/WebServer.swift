import Catalog
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Pipeline
import Views

/// `ingest serve`: the catalogue as web pages and a JSON API, with corrections, on Hummingbird.
///
/// Reads the catalogue as `ingest watch` writes it (SQLite WAL: readers never wait for the
/// writer), so each page shows the captures committed so far. Catalogue reads and file reads run on
/// NIO's thread pool for blocking work, never on the event loops or Swift's cooperative threads.
public struct WebServer: Sendable {
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
    let sessions = Sessions()
    let localCSRFToken = Sessions.randomToken()

    var library: String { config.library }

    /// The routes a server has.
    public enum Surface: Sendable {
        /// Pages, API, files, health and metrics: `ingest serve`.
        case catalogue
        /// `/healthz`, `/readyz` and `/metrics` only: `ingest watch --metrics`.
        case monitoring
    }

    public init(settings: ServeSettings, catalogue: Catalogue, config: PipelineConfig, logger: Logger,
                metrics: MetricsExporter? = nil, surface: Surface = .catalogue,
                ingesting: (@Sendable (String) -> Bool)? = nil) {
        self.settings = settings
        self.catalogue = catalogue
        self.config = config
        self.logger = logger
        self.metrics = metrics
        self.surface = surface
        self.ingesting = ingesting ?? { _ in false }
        watching = ingesting != nil
    }

    /// Where uploads are written until they are complete.
    var staging: UploadStaging { UploadStaging(config: config) }

    /// Serves until SIGTERM or SIGINT (with `stopsOnSignals`; else until the process ends), then
    /// finishes the requests in flight and returns. Calls `onListening` with the URL once the port
    /// is open (the port the system picked, for port 0).
    public func run(stopsOnSignals: Bool = true, onListening: @escaping @Sendable (String) -> Void) async throws {
        if surface == .catalogue {
            let removed = try await blocking { [staging] in try staging.sweep() }
            if removed > 0 { logger.notice("removed uploads a stopped server left unfinished", metadata: ["sets": "\(removed)"]) }
        }
        let app = Application(router: router(), server: .http1(configuration: .init(additionalChannelHandlers: [ContinueHandler()])),
                              configuration: .init(address: .hostname(settings.host, port: settings.port)),
                              onServerRunning: { [settings] channel in
                                  onListening(settings.url(port: channel.localAddress?.port ?? settings.port))
                              }, logger: logger)
        try await app.runService(gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [])
    }

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
            addPages(to: router)
            addSignIn(to: router)
            addCorrections(to: router)
            addAPI(to: router)
            addUploads(to: router)
            addFiles(to: router)
        }
        addHealth(to: router)
        return router
    }

    /// Runs blocking work — a catalogue read, a file read — on NIO's pool of threads for it.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// The context pages are drawn with for this request; `notice` an edit to report.
    func pageContext(_ context: WebContext, notice: Edit? = nil) -> PageContext {
        let signedIn: Bool = if case .session = context.access { true } else { false }
        return PageContext(links: .server, csrfToken: context.access.csrfToken, readOnly: settings.readOnly,
                           signedIn: signedIn, notice: notice)
    }

    /// The URL's query as `type` (`Forms`): a 400 for a query that cannot be read.
    static func query<T: Decodable>(_ type: T.Type, _ request: Request) throws -> T {
        try Forms.decode(type, request.uri.query ?? "", what: "query")
    }
}
