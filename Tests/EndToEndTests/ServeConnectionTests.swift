import Foundation
import TestSupport
import XCTest

/// What a client may cost the built server below authentication, over real loopback sockets: the
/// time a connection may take (`httpHeaderSeconds`, `httpIdleSeconds`), the connections held at
/// once (`httpMaxConnections`), the size of a request head and of a multipart part header, and a
/// transfer coding it does not know. The deadlines and the cap themselves are unit-tested
/// (`WebTests.ConnectionClockTests`, `ConnectionTableTests`); here the sockets are Python's, so
/// that a client can be as slow, as silent or as large as an attacker's.
final class ServeConnectionTests: XCTestCase {
    private static let headerSeconds = 2.0
    private static let idleSeconds = 3.0

    /// A server over the samples with short client times, and its work folder.
    private func served() throws -> (server: ServeHarness, work: SampleLibrary) {
        let work = try SampleLibrary(for: self, settings: ["httpHeaderSeconds": Self.headerSeconds, "httpIdleSeconds": Self.idleSeconds])
        try work.run()
        return (try ServeHarness(in: work.folder, test: self), work)
    }

    func testSilentHalfHeadAndSlowDripConnections_areClosedWithinTheHeaderTime() throws {
        let (server, work) = try served()
        let closed = try probe(server, "slow", in: work)
        for shape in ["silent", "half", "drip"] {
            let seconds = try XCTUnwrap(closed[shape] as? Double, "\(shape): \(closed)")
            XCTAssertGreaterThan(seconds, Self.headerSeconds - 0.5, "\(shape) is given its time")
            XCTAssertLessThan(seconds, Self.headerSeconds + 2, "\(shape) is closed within httpHeaderSeconds + 2 s")
        }
        XCTAssertEqual(try server.client.send("GET", "/healthz").status, 200)
    }

    func testKeptAliveConnection_isClosedAfterTheIdleTime() throws {
        let (server, work) = try served()
        let idle = try probe(server, "idle", in: work)
        XCTAssertEqual(idle["status"] as? Int, 200)
        let seconds = try XCTUnwrap(idle["closedAfter"] as? Double, "\(idle)")
        XCTAssertGreaterThan(seconds, Self.idleSeconds - 0.5)
        XCTAssertLessThan(seconds, Self.idleSeconds + 2)
    }

    func testTwoThousandSilentConnections_doNotKeepANormalRequestOut_norRunTheDescriptorsOut() throws {
        let (server, work) = try served()
        let crowd = try probe(server, "crowd", "2000", in: work)
        XCTAssertEqual(crowd["status"] as? Int, 200, "\(crowd)")
        XCTAssertLessThan(try XCTUnwrap(crowd["seconds"] as? Double), 5, "\(crowd)")
        // At most httpMaxConnections (1,000) of the 2,000 are held, beside the server's own files.
        XCTAssertLessThan(try XCTUnwrap(crowd["serverDescriptors"] as? Int), 1_100, "\(crowd)")
        XCTAssertEqual(try server.client.send("GET", "/healthz").status, 200)
    }

    func testHostileHeads_getTheirOwn4xxOr5xxNever500() throws {
        let (server, work) = try served()
        let heads = try probe(server, "heads", in: work)
        XCTAssertEqual(heads["hugeHeader"] as? Int, 431, "a 40 KB header: \(heads)")
        XCTAssertEqual(heads["manyHeaders"] as? Int, 431, "200 header fields: \(heads)")
        XCTAssertEqual(heads["unknownCoding"] as? Int, 501, "Transfer-Encoding: xchunked: \(heads)")
        XCTAssertEqual(heads["garbage"] as? Int, 400, "not HTTP: \(heads)")
        XCTAssertEqual(try server.client.send("GET", "/healthz").status, 200)
    }

    func testHugeFileNameAndPartHeader_areRefusedWith431_withFlatMemoryAndLittleProcessorTime() throws {
        let (server, work) = try served()
        let session = try XCTUnwrap(try server.client.send("GET", "/api/session").json() as? [String: Any])
        let csrf = try XCTUnwrap(session["csrfToken"] as? String)
        for (shape, megabytes) in [("fileName", 24), ("partHeader", 8)] {
            let refused = try probe(server, "bigpart", shape, "\(megabytes)", csrf, in: work)
            XCTAssertEqual(refused["status"] as? Int, 431, "\(shape): \(refused)")
            XCTAssertLessThan(try XCTUnwrap(refused["peakGrowthMB"] as? Double), 16, "\(shape): \(refused)")
            XCTAssertLessThan(try XCTUnwrap(refused["cpuSeconds"] as? Double), 2, "\(shape): \(refused)")
        }
        XCTAssertEqual(IngestHarness.files(under: work.inbox.appendingPathComponent(".uploads")), [], "nothing staged")
    }

    func testAnAnswerBeforeTheBody_isReadWholeByAClientStillSending_andOneSendingForEverIsCutOff() throws {
        let (server, work) = try served()
        let linger = try probe(server, "linger", in: work)
        XCTAssertEqual(linger["status"] as? Int, 413, "a 4 MB body, 128 KB of it sent, to a form's route: \(linger)")
        XCTAssertEqual(linger["saysClose"] as? Bool, true, "the answer says Connection: close: \(linger)")
        XCTAssertEqual(linger["sendError"] as? String, "", "sending on after the answer is not reset: \(linger)")
        XCTAssertEqual(linger["answerEnded"] as? Bool, true, "the answer is read to its end: \(linger)")
        XCTAssertEqual(linger["saysWhy"] as? Bool, true, "the answer says why: \(linger)")
        let cutOff = try XCTUnwrap(linger["senderCutOffAfter"] as? Double, "\(linger)")
        XCTAssertGreaterThan(cutOff, 1.5, "the rest is read for the lingering time (2 s): \(linger)")
        XCTAssertLessThan(cutOff, 5, "and no longer: \(linger)")
        XCTAssertEqual(try server.client.send("GET", "/healthz").status, 200)
    }

    // MARK: The client

    /// Runs the probe `mode` against `server` and returns what it printed (one JSON object).
    private func probe(_ server: ServeHarness, _ mode: String, _ arguments: String..., in work: SampleLibrary) throws -> [String: Any] {
        let port = try XCTUnwrap(URL(string: server.url)?.port)
        let run = try IngestHarness.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", Self.probeScript, mode, "\(port)", "\(server.process.processIdentifier)"]
                                                + arguments, in: work.folder, timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
        print("ServeConnectionTests probe \(mode) \(arguments.prefix(2).joined(separator: " ")): \(run.stdout)", terminator: "")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
    }

    private static let probeScript = #"""
        import json, os, resource, socket, sys, threading, time
        resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
        mode, port, pid, args = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
        host = f"127.0.0.1:{port}".encode()

        def connect():
            s = socket.create_connection(("127.0.0.1", port))
            s.settimeout(0.2)
            return s

        def closed(s):
            # Whether the server closed s (end of stream or reset), waiting at most 0.2 s.
            try:
                return s.recv(65536) == b""
            except socket.timeout:
                return False
            except OSError:
                return True

        def time_to_close(s, drip=None, limit=30):
            start = time.monotonic()
            while time.monotonic() - start < limit:
                if closed(s):
                    return time.monotonic() - start
                if drip is not None:
                    try:
                        s.send(drip)
                    except OSError:
                        return time.monotonic() - start
            return None

        def status_of(request, timeout=10):
            s = socket.create_connection(("127.0.0.1", port))
            s.settimeout(timeout)
            answer = b""
            def read():
                nonlocal answer
                try:
                    while b"\r\n\r\n" not in answer:
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        answer += chunk
                except OSError:
                    pass
            reader = threading.Thread(target=read)
            reader.start()
            try:
                s.sendall(request)
            except OSError:
                pass  # refused before the whole request was sent: the answer is read all the same
            reader.join(timeout)
            s.close()
            line = answer.split(b"\r\n", 1)[0].split(b" ")
            return int(line[1]) if len(line) > 1 and line[1].isdigit() else None

        def proc(field):
            for line in open(f"/proc/{pid}/status"):
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        def cpu():
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        result = {}
        if mode == "slow":
            shapes = {"silent": (b"", None), "half": (b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n", None),
                      "drip": (b"GET / HTTP/1.1\r\nX-Drip: ", b"a")}
            def measure(name, first, drip):
                s = connect()
                s.sendall(first)
                result[name] = time_to_close(s, drip)
            threads = [threading.Thread(target=measure, args=(n, *shape)) for n, shape in shapes.items()]
            for t in threads: t.start()
            for t in threads: t.join()
        elif mode == "idle":
            s = connect()
            s.settimeout(10)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += s.recv(65536)
            result["status"] = int(answer.split(b" ")[1])
            s.settimeout(0.2)
            result["closedAfter"] = time_to_close(s)
        elif mode == "crowd":
            crowd = [socket.create_connection(("127.0.0.1", port)) for _ in range(int(args[0]))]
            time.sleep(0.5)
            start = time.monotonic()
            result["status"] = status_of(b"GET /api/session HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
            result["seconds"] = time.monotonic() - start
            result["serverDescriptors"] = len(os.listdir(f"/proc/{pid}/fd"))
            for s in crowd: s.close()
        elif mode == "heads":
            get = b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n"
            result["hugeHeader"] = status_of(get + b"X-Big: " + b"a" * 40_000 + b"\r\n\r\n")
            result["manyHeaders"] = status_of(get + b"".join(b"X-%d: a\r\n" % i for i in range(200)) + b"\r\n")
            result["unknownCoding"] = status_of(b"POST /api/sets HTTP/1.1\r\nHost: " + host
                                                + b"\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            result["garbage"] = status_of(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n")
        elif mode == "bigpart":
            shape, megabytes, csrf = args[0], int(args[1]), args[2]
            big = b"a" * (megabytes << 20)
            if shape == "fileName":
                part = b'Content-Disposition: form-data; name="photo"; filename="' + big + b'.jpg"\r\n'
            else:
                part = b'Content-Disposition: form-data; name="photo"; filename="a.jpg"\r\nX-Padding: ' + big + b"\r\n"
            body = b"--B\r\n" + part + b"Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xd9\r\n--B--\r\n"
            head = (b"POST /api/sets HTTP/1.1\r\nHost: " + host + b"\r\nX-CSRF-Token: " + csrf.encode()
                    + b"\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            with open(f"/proc/{pid}/clear_refs", "w") as f:
                f.write("5")  # the peak resident size starts again from now
            before, cpu_before = proc("VmRSS"), cpu()
            result["status"] = status_of(head + body, timeout=60)
            time.sleep(0.3)
            result["peakGrowthMB"] = proc("VmHWM") - before
            result["cpuSeconds"] = cpu() - cpu_before
        elif mode == "linger":
            head = (b"POST /captures/merge HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/x-www-form-urlencoded"
                    + b"\r\nContent-Length: " + str(4 << 20).encode() + b"\r\n\r\n")
            def answered():
                s = socket.create_connection(("127.0.0.1", port))
                s.settimeout(10)
                s.sendall(head + b"a" * (2 << 16))  # more than a form takes (64 KB)
                answer = b""
                while b"\r\n\r\n" not in answer:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
                return s, answer
            # A client that goes on sending what it had in flight, then reads.
            s, answer = answered()
            result["status"] = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else None
            result["saysClose"] = b"\r\nconnection: close\r\n" in answer.lower()
            result["sendError"] = ""
            try:
                for _ in range(10):
                    s.sendall(b"a" * 65536)
                    time.sleep(0.02)
            except OSError as error:
                result["sendError"] = str(error)
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        result["answerEnded"] = True
                        break
                    answer += chunk
            except OSError as error:
                result["answerEnded"] = str(error)
            result["saysWhy"] = b"larger than a form" in answer
            s.close()
            # A client that never stops sending.
            s, _ = answered()
            start = time.monotonic()
            try:
                while time.monotonic() - start < 30:
                    s.sendall(b"a" * 65536)
                    time.sleep(0.01)
            except OSError:
                result["senderCutOffAfter"] = time.monotonic() - start
            s.close()
        print(json.dumps(result))
        """#
}
