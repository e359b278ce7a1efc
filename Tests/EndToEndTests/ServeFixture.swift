import Catalog
import Foundation
import TestSupport
import XCTest

/// The samples ingested, their products imported, and the built `ingest serve` running over them,
/// for what needs the real server (WebTests test the routes in-process).
struct ServedSamples {
    let work: SampleLibrary
    let server: ServeHarness
    var client: HTTPClient { server.client }

    init(for test: XCTestCase, arguments: [String] = ["--listen", "127.0.0.1:0"], environment: [String: String] = [:]) throws {
        work = try SampleLibrary(for: test)
        try work.run()
        let products = IngestHarness.packageRoot.appendingPathComponent("samples/products.tsv").path
        XCTAssertEqual(try work.ingest(["products", "import", products, "--quiet"]).status, 0)
        server = try ServeHarness(in: work.folder, arguments: arguments, environment: environment, test: test)
    }

    func catalogue() throws -> Catalogue {
        try work.catalogue()
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
        let session = try XCTUnwrap(try client.send("GET", "/api/session").json() as? [String: Any])
        return try XCTUnwrap(session["csrfToken"] as? String)
    }

    /// The capture of set `set` (the first, newest first).
    func capture(ofSet set: String) throws -> Capture {
        try XCTUnwrap(try catalogue().captures(matching: CaptureFilter(setName: set)).first)
    }
}

extension HTTPClient.Response {
    /// The JSON object of the answer.
    func object() throws -> [String: Any] {
        try XCTUnwrap(try json() as? [String: Any], text)
    }
}
