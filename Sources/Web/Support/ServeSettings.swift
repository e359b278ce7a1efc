import Foundation

/// How `ingest serve` listens and whom it lets in.
package struct ServeSettings: Sendable {
    /// The address to listen on: an IPv4 or IPv6 address, or `localhost`.
    package var host: String
    /// 0 lets the system pick a free port (the tests do).
    package var port: Int
    /// The token a browser signs in with and the API takes as a bearer token; nil lets everyone
    /// on this machine in, which only a loopback address allows.
    package var token: String?
    /// Every correction refused.
    package var readOnly: Bool
    /// The names a request's `Host` may give (`--allowed-host`, besides this server's own).
    var allowedHosts: AllowedHosts

    /// The shortest token accepted: one that can be guessed protects nothing.
    package static let minimumTokenLength = 16

    /// Reads `--listen` (`HOST:PORT`, `[IPv6]:PORT`, or a port alone for 127.0.0.1) and checks the
    /// rest; `allowedHosts` are the `--allowed-host` names (a host name or address, no port). Throws
    /// `ServeSettingsError` for what the person starting the server must change.
    package init(listen: String, token: String?, readOnly: Bool, allowedHosts: [String] = []) throws(ServeSettingsError) {
        (host, port) = try Self.address(listen)
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.readOnly = readOnly
        for name in allowedHosts where !Self.isHostName(name) { throw .badAllowedHost(name) }
        self.allowedHosts = AllowedHosts(listening: host, allowed: allowedHosts)
        if let token = self.token, token.count < Self.minimumTokenLength {
            throw .weakToken(length: token.count)
        }
        if self.token == nil, !isLoopback { throw .tokenNeeded(host: host) }
    }

    /// Whether only this machine can reach the address.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The URL a browser opens (a picked port filled in by the caller).
    package func url(port: Int) -> String {
        host.contains(":") ? "http://[\(host)]:\(port)/" : "http://\(host):\(port)/"
    }

    /// A name `--allowed-host` takes: letters, digits, `.`, `-` and `_` (a DNS name or an IPv4
    /// address), or an IPv6 address in brackets; no port, no trailing dot.
    private static func isHostName(_ name: String) -> Bool {
        if name.hasPrefix("["), name.hasSuffix("]") {
            return name.count > 2 && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !name.isEmpty && name.count <= 253 && !name.hasSuffix(".") && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }

    private static func address(_ text: String) throws(ServeSettingsError) -> (String, Int) {
        if let port = Int(text) { return ("127.0.0.1", try checked(port, text)) }
        let host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex) ..< close]
            guard text[close...].hasPrefix("]:") else { throw .badListen(text) }
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw .badListen(text) }
            (host, portText) = (text[..<colon], text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = Int(portText) else { throw .badListen(text) }
        return (String(host), try checked(port, text))
    }

    private static func checked(_ port: Int, _ text: String) throws(ServeSettingsError) -> Int {
        guard (0 ... 65535).contains(port) else { throw .badListen(text) }
        return port
    }
}

/// Why `ingest serve` will not start as asked (exit 64).
package enum ServeSettingsError: Error, CustomStringConvertible, Equatable {
    case badListen(String)
    case tokenNeeded(host: String)
    case weakToken(length: Int)
    case badAllowedHost(String)

    package var description: String {
        switch self {
        case .badListen(let text):
            return "--listen must be HOST:PORT ([IPv6]:PORT, or a port alone), port 0…65535; got '\(text)'."
        case .tokenNeeded(let host):
            return "--listen \(host) lets other machines in: give a token with --token or INGEST_TOKEN, "
                + "or listen on 127.0.0.1."
        case .badAllowedHost(let name):
            return "--allowed-host takes a host name or address as a Host header gives it, without a port "
                + "(photos.example.com, 192.168.1.5, [fd00::5]); got '\(name)'."
        case .weakToken(let length):
            return "the token has \(length) characters; give one of \(ServeSettings.minimumTokenLength) or more "
                + "(for instance: openssl rand -hex 16)."
        }
    }
}
