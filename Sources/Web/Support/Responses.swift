import Foundation
import Hummingbird
import Views

/// The bodies routes answer with.
enum Responses {
    /// A page; never cached (it may hold a CSRF token and changes with every edit).
    static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: page.rendered)))
    }

    /// A JSON answer: sorted keys, slashes as they are; never cached.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Text of `contentType`; never cached.
    static func text(_ text: String, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
