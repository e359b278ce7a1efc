import Foundation
import TestSupport
import XCTest
import Catalog

/// `ingest watch` under systemd's `Type=notify` with a watchdog, as the unit in `contrib/` runs
/// it: a datagram socket of the test's own stands in for systemd's `NOTIFY_SOCKET`.
final class ServiceNotifyTests: XCTestCase {
    /// A bound `AF_UNIX` datagram socket at a new path; closed and removed at the test's end.
    private func notifySocket() throws -> (descriptor: Int32, path: String) {
        let path = "/tmp/ingest-notify-\(UUID().uuidString.prefix(8)).sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
        addTeardownBlock {
            close(descriptor)
            unlink(path)
        }
        return (descriptor, path)
    }

    /// The datagrams that arrive on `descriptor` within `seconds`.
    private func messages(on descriptor: Int32, within seconds: Double) -> [String] {
        var received: [String] = []
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < end {
            var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&wanted, 1, Int32(max(1, end.timeIntervalSinceNow * 1000))) == 1 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 { received.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        return received
    }

    func testWatch_tellsSystemdItIsReady_pingsTheWatchdog_andSaysWhenItStops() throws {
        let work = try SampleLibrary(for: self, settings: ["settleSeconds": 1])
        let notify = try notifySocket()
        // A watchdog of 0.8 s: a ping is due every 0.2 s at the latest, also while sets are ingested.
        let watch = try BackgroundIngest(["watch"], in: work.folder,
                                         environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "800000"])
        let running = messages(on: notify.descriptor, within: 4)
        XCTAssertTrue(running.first?.hasPrefix("READY=1\nSTATUS=watching ") == true, "\(running)")
        let pings = running.filter { $0 == "WATCHDOG=1" }.count
        XCTAssertGreaterThanOrEqual(pings, 8, "about every 0.2 s for 4 s: \(running)")
        XCTAssertEqual(Set(running.dropFirst()), ["WATCHDOG=1"], "\(running)")

        XCTAssertTrue(IngestHarness.eventually(within: 30) { (try? work.catalogue().counts().photos) == 17 },
                      "the samples are ingested meanwhile")

        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 30), 0, watch.stderr)
        XCTAssertEqual(messages(on: notify.descriptor, within: 0.5).last, "STOPPING=1")
    }

    func testWatch_watchdogOfAnotherProcess_isNotPinged() throws {
        // WATCHDOG_PID names the process the watchdog is for; systemd sets it for its main process.
        let work = try SampleLibrary(for: self, settings: ["settleSeconds": 1])
        let notify = try notifySocket()
        let watch = try BackgroundIngest(["watch"], in: work.folder,
                                         environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "800000", "WATCHDOG_PID": "1"])
        let received = messages(on: notify.descriptor, within: 2)
        XCTAssertEqual(received.count, 1, "READY only, no ping for another process's watchdog: \(received)")
        watch.signal(SIGTERM)
        XCTAssertEqual(watch.exitStatus(within: 30), 0, watch.stderr)
    }
}
