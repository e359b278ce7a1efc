package import Foundation
import Glibc
import SystemPackage

/// A minimal HTTP/1.1 client over a plain socket, for the tests of `ingest serve`: it sends exactly
/// the request line and headers it is given — a path with `..` in it, any `Host`, no cookie jar,
/// no redirect followed — which URLSession would not.
package struct HTTPClient {
    package var host: String
    package var port: Int

    package init(url: String) {
        let components = URLComponents(string: url)
        host = components?.host ?? "127.0.0.1"
        port = components?.port ?? 80
    }

    package struct Response {
        package var status: Int
        /// Header names in lower case; a name sent twice keeps both values, joined by ", ".
        package var headers: [String: String]
        /// Every `Set-Cookie` header.
        package var cookies: [String]
        package var body: Data

        package var text: String { String(decoding: body, as: UTF8.self) }

        package func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
    }

    /// Sends one request (`Connection: close`) and reads the whole answer. `Host` defaults to the
    /// server's address; a `Content-Length` is added for a body.
    package func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil,
                     timeout: Double = 30) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        var all = headers
        if all["Host"] == nil { all["Host"] = "\(host):\(port)" }
        all["Connection"] = "close"
        if let body { all["Content-Length"] = String(body.count) }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let raw = try exchange(Data(head.utf8) + (body ?? Data()), timeout: timeout)
        return try Self.parse(raw)
    }

    /// A form POST (`application/x-www-form-urlencoded`).
    package func post(_ path: String, form: [(String, String)], headers: [String: String] = [:]) throws -> Response {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        return try send("POST", path, headers: all, body: Data(body.utf8))
    }

    /// A JSON POST.
    package func post(_ path: String, json: Any, headers: [String: String] = [:]) throws -> Response {
        var all = headers
        all["Content-Type"] = "application/json"
        return try send("POST", path, headers: all, body: try JSONSerialization.data(withJSONObject: json))
    }

    private func exchange(_ request: Data, timeout: Double) throws -> Data {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPClientError(reason: "socket: \(Errno(rawValue: errno))") }
        defer { close(socket) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HTTPClientError(reason: "connect to \(host):\(port): \(Errno(rawValue: errno))") }
        try request.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw HTTPClientError(reason: "send: \(Errno(rawValue: errno))") }
                sent += count
            }
        }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else { throw HTTPClientError(reason: "recv: \(Errno(rawValue: errno))") }
            answer.append(contentsOf: buffer[0 ..< count])
        }
        return answer
    }

    private static func parse(_ raw: Data) throws -> Response {
        guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { throw HTTPClientError(reason: "no end of headers") }
        let lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw HTTPClientError(reason: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "set-cookie" { cookies.append(value) }
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Data(raw[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunk(body) }
        return Response(status: status, headers: headers, cookies: cookies, body: body)
    }

    private static func dechunk(_ data: Data) throws -> Data {
        var result = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw HTTPClientError(reason: "bad chunk size")
            }
            if size == 0 { break }
            let start = lineEnd.upperBound
            result.append(rest[start ..< start + size])
            rest = rest[(start + size + 2)...]
        }
        return result
    }
}

package struct HTTPClientError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "HTTP client: \(reason)" }
}
