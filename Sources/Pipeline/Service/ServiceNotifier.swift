import Foundation
import Synchronization

/// What a service tells systemd (`sd_notify(3)`'s protocol, without libsystemd): `READY=1` once it
/// does its work, `WATCHDOG=1` at least every half of `WATCHDOG_USEC`, `STOPPING=1` when it stops.
/// Each is one datagram to the socket `NOTIFY_SOCKET` names (a path, or `@name` in the abstract
/// namespace). Without `NOTIFY_SOCKET` (not under systemd, or `Type=simple`) it sends nothing.
package final class ServiceNotifier: Sendable {
    private let socketPath: String?
    /// How often `WATCHDOG=1` is sent: a quarter of the watchdog's timeout, so a ping late by as
    /// long again still comes in time; nil without a watchdog.
    package let pingInterval: Double?
    /// When `WATCHDOG=1` was last sent, in seconds of `clock`.
    private let lastPing = Mutex(-Double.infinity)

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if forUs, socketPath != nil, let micros = environment["WATCHDOG_USEC"].flatMap(Double.init), micros > 0 {
            pingInterval = micros / 4_000_000
        } else {
            pingInterval = nil
        }
    }

    /// `READY=1` with `status` as the line `systemctl status` shows.
    package func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    package func stopping() {
        send("STOPPING=1")
    }

    /// `WATCHDOG=1` when it is due (`pingInterval` has passed since the last); thread-safe.
    package func alive() {
        guard let pingInterval else { return }
        let now = Self.clock()
        let due = lastPing.withLock { last in
            guard now - last >= pingInterval else { return false }
            last = now
            return true
        }
        if due { send("WATCHDOG=1") }
    }

    /// When `alive()` is next due, in seconds of `clock()`; infinity without a watchdog.
    package var nextPing: Double {
        guard let pingInterval else { return .infinity }
        return lastPing.withLock { $0 } + pingInterval
    }

    /// Seconds on the monotonic clock `nextPing` counts in.
    package static func clock() -> Double {
        ProcessInfo.processInfo.systemUptime
    }

    /// Sends `message` as one datagram; a failure is systemd's to notice (a missed ping), not ours.
    private func send(_ message: String) {
        guard let socketPath else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return }
        defer { close(socket) }
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
    }
}
