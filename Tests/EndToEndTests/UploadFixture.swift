import Foundation
import TestSupport
import XCTest

/// A work folder for upload tests: an empty catalogue that knows the samples' products, and
/// `ingest serve` on it (with `--watch` unless told otherwise). Uploads go through `curl`, as a
/// user's script would send them.
struct UploadServer {
    let folder: URL
    let server: ServeHarness
    let token: String?
    private let test: XCTestCase

    static let samples = IngestHarness.packageRoot.appendingPathComponent("samples")

    init(for test: XCTestCase, settings: [String: Any] = [:], arguments: [String] = ["--watch"], token: String? = nil,
         launcher: [String] = []) throws {
        self.test = test
        self.token = token
        folder = try TemporaryFolder.make("upload")
        let folder = folder
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        // settleSeconds far above any wait here: a set ingested in time was taken by its ready marker.
        var config: [String: Any] = ["inbox": "inbox", "library": "library", "quarantine": "quarantine", "minFreeMB": 1,
                                     "settleSeconds": 600]
        config.merge(settings) { _, new in new }
        try IngestHarness.writeConfig(config, in: folder)
        XCTAssertEqual(try IngestHarness.ingest(["run", "--quiet"], in: folder).status, 0, "an empty run makes the catalogue")
        let products = Self.samples.appendingPathComponent("products.tsv").path
        XCTAssertEqual(try IngestHarness.ingest(["products", "import", products, "--quiet"], in: folder).status, 0)
        server = try ServeHarness(in: folder, arguments: ["--listen", "127.0.0.1:0"] + arguments + (token.map { ["--token", $0] } ?? []),
                                  launcher: launcher, test: test)
    }

    var url: String { server.url }

    /// The sample photo `set/file`.
    static func sample(_ path: String) -> String { samples.appendingPathComponent(path).path }

    /// What `curl` got back: the status and the JSON body.
    struct Answer {
        var status: Int
        var body: [String: Any]
        var message: String { ((body["error"] as? [String: Any])?["message"] as? String) ?? "" }
        var set: String? { body["set"] as? String }
    }

    /// `POST /api/sets` with curl's `-F` `parts` (`photo=@PATH`, `agentId=chef`), with the CSRF token
    /// (or the bearer token of a server that has one) unless `authorised` is false.
    func upload(_ parts: [String], authorised: Bool = true, extra: [String] = []) throws -> Answer {
        var arguments = ["-s", "-S", "-o", "-", "-w", "\n%{http_code}"]
        if authorised {
            let header = if let token { "Authorization: Bearer \(token)" } else { "X-CSRF-Token: \(try csrfToken())" }
            arguments += ["-H", header]
        }
        arguments += parts.flatMap { ["-F", $0] } + extra + [url + "api/sets"]
        let outcome = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/curl"), arguments, in: folder, timeout: 120)
        XCTAssertEqual(outcome.status, 0, "curl: \(outcome.stderr)")
        return Self.answer(outcome.stdout)
    }

    /// Reads `body\nstatus` as curl's `-w "\n%{http_code}"` writes it.
    static func answer(_ output: String) -> Answer {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body = lines.dropLast().joined(separator: "\n")
        return Answer(status: status, body: (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:])
    }

    func csrfToken() throws -> String {
        let session = try XCTUnwrap(try server.client.send("GET", "/api/session").json() as? [String: Any])
        return try XCTUnwrap(session["csrfToken"] as? String)
    }

    /// `GET /api/sets/NAME`.
    func status(_ set: String) throws -> [String: Any] {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return try XCTUnwrap(try server.client.send("GET", "/api/sets/\(set)", headers: headers).json() as? [String: Any])
    }

    /// Asks for the set's status until it is `state` (or `timeout` seconds pass); returns the last answer.
    @discardableResult
    func wait(for set: String, state: String, timeout: Double = 60) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try status(set)
        while last["state"] as? String != state, Date() < deadline {
            usleep(100_000)
            last = try status(set)
        }
        XCTAssertEqual(last["state"] as? String, state, "set \(set): \(last)\nserver log:\n\(server.log)")
        return last
    }

    /// The inbox's set folders (what a run would take).
    var setsInInbox: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("inbox").path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Every file in the staging folders of uploads.
    var staged: [String] {
        IngestHarness.files(under: folder.appendingPathComponent("inbox/.uploads"))
    }

    /// Sends half of an upload of a sample photo over a raw socket, then closes the connection
    /// (`close`) or waits for the answer (`wait`), which it prints; or (`expect`) sends the head with
    /// `Expect: 100-continue`, prints the interim answer, then sends the body and prints the answer;
    /// or (`resume`) sends the rest once the file `resume` appears in the work folder, and prints the answer.
    func partialUpload(then: String) throws -> IngestHarness.Outcome {
        try Self.partialUpload(url: url, token: csrfToken(), folder: folder, then: then)
    }

    /// `partialUpload(then:)` to the server at `url` with its CSRF `token`, from `folder`.
    static func partialUpload(url: String, token: String, folder: URL, then: String) throws -> IngestHarness.Outcome {
        let port = try XCTUnwrap(URL(string: url)?.port)
        let script = """
            import os, socket, sys, time
            port, token, then, photo = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
            data = open(photo, "rb").read()
            b = "PartialBoundary"
            body = (f'--{b}\\r\\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\\r\\n\\r\\n').encode() + data + f"\\r\\n--{b}--\\r\\n".encode()
            head = (f"POST /api/sets HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\nX-CSRF-Token: {token}\\r\\n"
                    f"Content-Type: multipart/form-data; boundary={b}\\r\\nContent-Length: {len(body)}\\r\\n\\r\\n").encode()
            connection = socket.create_connection(("127.0.0.1", port))
            connection.settimeout(30)
            if then == "expect":
                connection.sendall(head.replace(b"\\r\\n\\r\\n", b"\\r\\nExpect: 100-continue\\r\\n\\r\\n"))
                interim = b""
                while not interim.endswith(b"\\r\\n\\r\\n"):
                    interim += connection.recv(1)
                sys.stdout.write(interim.decode())
                connection.sendall(body)
                sys.stdout.write(connection.recv(65536).decode("utf-8", "replace"))
                sys.exit(0)
            connection.sendall(head + body[: len(body) // 2])
            if then == "close":
                connection.close()
                sys.exit(0)
            if then == "resume":
                while not os.path.exists("resume"):
                    time.sleep(0.05)
                connection.sendall(body[len(body) // 2 :])
            answer = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
            sys.stdout.write(answer.decode("utf-8", "replace"))
            """
        return try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["python3", "-c", script, "\(port)", token, then, sample("single-product/IMG_0001.jpg")],
                                         in: folder, timeout: 60)
    }
}
