import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization
@testable import Web

/// Sends requests straight to `WebServer.router()` in this process: no socket, no second process,
/// the same middlewares and routes. What HummingbirdTesting's `.router` mode does, with
/// Hummingbird's public API only: a `Request` with its whole body, a `WebContext` over a testing
/// channel, the responder's `Response`, its body gathered by a `ResponseBodyWriter`.
///
/// Not HummingbirdTesting itself: that product brings AsyncHTTPClient, swift-nio-ssl (BoringSSL)
/// and swift-nio-http2 into the build, measured at 466 CPU-seconds more for every clean build
/// (about four minutes on two cores), for what these few lines do. Requests a client cannot send
/// (`..` in a path, another `Host`) go to the real server through `HTTPClient` (EndToEndTests).
struct RouterClient: Sendable {
    let responder: RouterResponder<WebContext>
    /// The `Host` every request names: a loopback server's, so `AccessMiddleware` lets it in.
    let authority: String
    private let channel = NIOAsyncTestingChannel()
    private let logger = Logger(label: "web-tests")

    init(_ router: Router<WebContext>, authority: String = "127.0.0.1:8080") {
        self.init(responder: router.buildResponder(), authority: authority)
    }

    private init(responder: RouterResponder<WebContext>, authority: String) {
        self.responder = responder
        self.authority = authority
    }

    /// The same server, its requests naming `authority` in their `Host`.
    func addressing(_ authority: String) -> RouterClient {
        RouterClient(responder: responder, authority: authority)
    }

    /// The answer as a socket client would read it: header names in lower case (a name sent twice
    /// keeps both values, joined by ", "), every `Set-Cookie`, the body.
    struct Response {
        var status: Int
        var headers: [String: String]
        var cookies: [String]
        var body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
    }

    /// Sends one request and waits for the whole answer; a `Content-Length` is added for a body.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) throws -> Response {
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        if let body { fields[.contentLength] = String(body.count) }
        let request = Request(head: HTTPRequest(method: HTTPRequest.Method(method)!, scheme: "http", authority: authority,
                                                path: path, headerFields: fields),
                              body: RequestBody(buffer: ByteBuffer(bytes: body ?? Data())))
        let context = WebContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        return try Self.wait { [responder] in
            let response = try await responder.respond(to: request, context: context)
            let collector = BodyCollector()
            try await response.body.write(collector)
            var headers: [String: String] = [:]
            for field in response.headers where field.name != .setCookie {
                let name = field.name.canonicalName
                headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
            }
            return Response(status: response.status.code, headers: headers, cookies: response.headers[values: .setCookie],
                            body: Data(collector.bytes.withLock { $0 }.readableBytesView))
        }
    }

    /// A form POST (`application/x-www-form-urlencoded`), each value percent-encoded.
    func post(_ path: String, form: [(String, String)], headers: [String: String] = [:]) throws -> Response {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        return try send("POST", path, headers: headers.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                        body: Data(body.utf8))
    }

    /// A JSON POST.
    func post(_ path: String, json: Any, headers: [String: String] = [:]) throws -> Response {
        try send("POST", path, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
                 body: try JSONSerialization.data(withJSONObject: json))
    }

    /// Runs `body` on Swift's concurrency threads and waits for it on this one, so that the tests
    /// read as the end-to-end tests they came from.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }

    /// Gathers the buffers a response body writes.
    private final class BodyCollector: ResponseBodyWriter, Sendable {
        let bytes = Mutex(ByteBuffer())
        func write(_ buffer: ByteBuffer) async throws { _ = bytes.withLock { $0.writeImmutableBuffer(buffer) } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
