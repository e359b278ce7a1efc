import Foundation
import Synchronization
import SystemPackage
import XCTest

/// A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` of Debian's `postgresql` in a
/// temporary folder, listening on a Unix socket there and on a free loopback port, with durability
/// off (nothing in it outlives the tests). PostgreSQL refuses to run as root: as root, the server
/// runs as the `postgres` user the package creates. Stopped when the test process exits.
package final class PostgresServer: Sendable {
    /// The cluster most tests share, started on first use; each test makes a database of its own.
    package static var shared: PostgresServer {
        get throws {
            try sharedServer.withLock { server in
                if let server { return server }
                let started = try PostgresServer(label: "shared")
                server = started
                return started
            }
        }
    }

    private static let sharedServer = Mutex<PostgresServer?>(nil)

    /// The folder holding the cluster (`data/`), its socket and its log.
    package let folder: String
    package let port: Int
    /// The superuser every test connects as (trusted, no password).
    package let user = "ingest"
    private let binaries: String

    /// Makes and starts a new cluster. Throws with the tool's output when that fails.
    package init(label: String = "cluster") throws {
        binaries = try Self.binaryFolder()
        folder = try TemporaryFolder.make("ingest-pg-\(label)").path
        port = try Self.freePort()
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", folder]) }
        try runAsServer("initdb", ["-D", "\(folder)/data", "-U", user, "--auth=trust", "-E", "UTF8", "--no-locale"])
        try start()
        Self.running.withLock { $0.append((binaries, folder)) }
        if Self.running.withLock({ $0.count }) == 1 { atexit { PostgresServer.stopAll() } }
    }

    /// The URL of `database` on this cluster, through its socket.
    package func url(database: String = "postgres") -> String {
        "postgresql://\(user)@/\(database)?host=\(folder)&port=\(port)"
    }

    /// The URL of the same database over TCP on the loopback address.
    package func tcpURL(database: String) -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// A new empty database; returns its name.
    package func makeDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        _ = try psql("CREATE DATABASE \(name)")
        return name
    }

    /// Removes `database`, ending its connections.
    package func dropDatabase(_ database: String) throws {
        _ = try psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
    }

    /// Runs `sql` with `psql` in `database`; its output, unaligned, without headers.
    @discardableResult
    package func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url(database: database), "-c", sql])
    }

    /// Starts the server and waits until it accepts connections.
    package func start() throws {
        let options = "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
            + "-c full_page_writes=off -c max_connections=300"
        try runAsServer("pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-o", options, "-w", "-t", "60", "start"])
    }

    /// Stops the server at once (`immediate`: as a crash would, open connections break).
    package func stop() throws {
        try runAsServer("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
    }

    /// `pg_ctl restart`: every open connection breaks; the server accepts new ones when this returns.
    package func restart() throws {
        try runAsServer("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "-t", "60", "restart"])
    }

    /// Runs one of the server's programs, as the `postgres` user when this process is root.
    private func runAsServer(_ program: String, _ arguments: [String]) throws {
        let path = "\(binaries)/\(program)"
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try Self.run(path, arguments)
        }
    }

    /// The clusters this process started, stopped when it exits.
    private static let running = Mutex<[(binaries: String, folder: String)]>([])

    private static func stopAll() {
        for (binaries, folder) in running.withLock({ $0 }) {
            let stop = "\(binaries)/pg_ctl -D '\(folder)/data' -m immediate -w stop >/dev/null 2>&1"
            _ = try? run("/bin/sh", ["-c", getuid() == 0 ? "runuser -u postgres -- \(stop)" : stop])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The folder of `initdb` and `pg_ctl`: Debian keeps them off `PATH`.
    private static func binaryFolder() throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw PostgresServerError("no PostgreSQL server in /usr/lib/postgresql: scripts/setup --test installs Debian's postgresql")
        }
        return "/usr/lib/postgresql/\(newest)/bin"
    }

    /// A TCP port on the loopback address that nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw PostgresServerError("cannot find a free port: \(Errno(rawValue: errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `executable` and returns its standard output; throws with its output when it fails.
    /// Spawned and waited for directly, not with Foundation's `Process`: that one learns of a
    /// child's end when a socket it hands down closes, and `pg_ctl start` hands it on to the server,
    /// which keeps it open for as long as it runs.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw PostgresServerError("cannot start \(executable): \(Errno(rawValue: spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // Exited normally with 0: WIFEXITED and WEXITSTATUS, which Swift cannot import as macros.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw PostgresServerError("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}

/// Why the test cluster could not be made or used.
package struct PostgresServerError: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
