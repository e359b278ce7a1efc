import Foundation

/// The names a request's `Host` may give, matched exactly (letters in any case, a port or none):
/// `localhost`, `127.0.0.1`, `[::1]`, the `--listen` address, each `--allowed-host` (the names a
/// reverse proxy forwards) and, for a server listening on every address (`0.0.0.0`, `::`), this
/// machine's own addresses and host name. Anything else — a DNS-rebinding name such as
/// `127.0.0.1.attacker.example` or `localhost.example`, `0x7f.1`, a trailing dot — is refused before
/// any route runs, with or without a token: a page whose name was made to point at this machine
/// cannot read a page, take a CSRF token or post a change.
struct AllowedHosts: Sendable, Equatable {
    /// The names, in lower case, IPv6 addresses in brackets.
    let names: Set<String>

    init(listening host: String, allowed: [String], machine: () -> [String] = AllowedHosts.machineNames) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]", Self.name(host)]
        names.formUnion(allowed.map(Self.name))
        if host == "0.0.0.0" || host == "::" { names.formUnion(machine().map(Self.name)) }
        self.names = names
    }

    /// Whether `authority` (a `Host` header: `name`, `name:port`, `[v6]` or `[v6]:port`) is one of the names.
    func allows(_ authority: String) -> Bool {
        let host: Substring, rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            rest = authority[colon...]
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", (1 ... 5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        }
        return names.contains(host.lowercased())
    }

    /// `host` as a `Host` header names it: lower case, an IPv6 address in brackets.
    static func name(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.contains(":") && !lower.hasPrefix("[") ? "[\(lower)]" : lower
    }

    /// This machine's addresses (every interface's) and host name, for a server listening on all of them.
    static func machineNames() -> [String] {
        var names: [String] = []
        var name = [CChar](repeating: 0, count: 256)
        if gethostname(&name, name.count) == 0 { names.append(Self.text(name)) }
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&interfaces) == 0, let first = interfaces else { return names }
        defer { freeifaddrs(interfaces) }
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = interface.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size
                                                                                    : MemoryLayout<sockaddr_in>.size)
            guard [sa_family_t(AF_INET), sa_family_t(AF_INET6)].contains(address.pointee.sa_family),
                  getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            // A link-local IPv6 address carries its interface (`fe80::1%eth0`), which no Host header does.
            names.append(String(Self.text(text).prefix { $0 != "%" }))
        }
        return names
    }

    /// A C buffer's text up to its first NUL.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
