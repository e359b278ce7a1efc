import Catalog
import Foundation
import Logging
import Pipeline
import Synchronization
import TestSupport
@testable import Web
import XCTest
import SystemPackage

/// The samples ingested and their products imported, served by a `WebServer` in this process
/// (`RouterClient`). The built `ingest run` fills one library per test process; each test gets a
/// copy of it, so its corrections change nothing another test sees.
struct ServedSamples {
    let work: SampleLibrary
    /// The PostgreSQL catalogue's URL; nil for the library's SQLite file.
    let catalogURL: String?
    let client: RouterClient

    /// A copy of the samples' library (or, with `catalogURL`, the samples ingested into that
    /// PostgreSQL database), served on loopback with `token` and `readOnly`.
    init(for test: XCTestCase, token: String? = nil, readOnly: Bool = false, catalogURL: String? = nil) throws {
        let work = if let catalogURL {
            try Self.filled(SampleLibrary(for: test, settings: ["catalog": catalogURL]))
        } else {
            try Self.library(for: test)
        }
        let config = try PipelineConfig.load(path: FilePath(work.folder.appendingPathComponent("pipeline.json").path))
        try self.init(work: work, config: config, catalogURL: catalogURL, token: token, readOnly: readOnly, test: test)
    }

    /// `work` served with `config` (its catalogue opened until the test ends).
    init(work: SampleLibrary, config: PipelineConfig, catalogURL: String? = nil, token: String? = nil, readOnly: Bool = false,
         test: XCTestCase) throws {
        self.work = work
        self.catalogURL = catalogURL
        var logger = Logger(label: "web-tests")
        logger.logLevel = .warning
        let catalogue = try Catalogue(config.catalogLocation, create: false, logger: logger)
        test.addTeardownBlock { try? catalogue.close() }
        let settings = try ServeSettings(listen: "127.0.0.1:8080", token: token, readOnly: readOnly)
        client = RouterClient(try WebServer(settings: settings, catalogue: catalogue, config: config, logger: logger).router())
    }

    /// The same library served by a new server (a restart: new sessions, the same files).
    func restarted(token: String? = nil, test: XCTestCase) throws -> ServedSamples {
        let config = try PipelineConfig.load(path: FilePath(work.folder.appendingPathComponent("pipeline.json").path))
        return try ServedSamples(work: work, config: config, catalogURL: catalogURL, token: token, test: test)
    }

    /// A copy of the samples' library, not served, for a test to change first.
    static func library(for test: XCTestCase) throws -> SampleLibrary {
        try SampleLibrary(copying: template.get(), for: test)
    }

    /// The library every test copies, made on first use; removed when the test process exits.
    private static let template = Result { () throws -> URL in
        let folder = try TemporaryFolder.make("web-samples")
        ServedSamples.made.withLock { $0 = folder }
        atexit {
            if let folder = ServedSamples.made.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
        }
        return try ServedSamples.filled(SampleLibrary(in: folder)).folder
    }

    private static let made = Mutex<URL?>(nil)

    /// `work` after `ingest run` and `ingest products import samples/products.tsv`.
    private static func filled(_ work: SampleLibrary) throws -> SampleLibrary {
        try work.run()
        let products = IngestHarness.packageRoot.appendingPathComponent("samples/products.tsv").path
        XCTAssertEqual(try work.ingest(["products", "import", products, "--quiet"]).status, 0)
        return work
    }

    func catalogue() throws -> Catalogue {
        guard let catalogURL else { return try work.catalogue() }
        return try Catalogue(.postgres(url: catalogURL), create: false, logger: Logger(label: "test"))
    }

    /// The captures and their photo ids by position: what corrections change.
    func layout() throws -> [String: [String]] {
        let catalogue = try catalogue()
        return Dictionary(uniqueKeysWithValues: try catalogue.captures().map {
            ($0.id, try catalogue.photos(ofCapture: $0.id).map(\.id))
        })
    }

    /// The CSRF token of the loopback server without token (from `/api/session`).
    func csrfToken() throws -> String {
        try XCTUnwrap(try client.send("GET", "/api/session").object()["csrfToken"] as? String)
    }

    /// The capture of set `set` (the first, newest first).
    func capture(ofSet set: String) throws -> Capture {
        try XCTUnwrap(try catalogue().captures(matching: CaptureFilter(setName: set)).first)
    }
}

extension RouterClient.Response {
    /// The JSON object of the answer.
    func object() throws -> [String: Any] {
        try XCTUnwrap(try json() as? [String: Any], text)
    }
}
