import Foundation
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat

/// Forms and query strings (`application/x-www-form-urlencoded`: `name=value` pairs joined by `&`,
/// `+` for a space, percent-escapes), read by Hummingbird's `URLEncodedFormDecoder` into one
/// `Decodable` struct per form or query, so each route names the fields it takes.
///
/// A name may come once: several values are sent as `name[]=a&name[]=b` (the catalogue's tick
/// boxes are named `capture[]`). A name sent twice, a broken escape or a value of the wrong kind is
/// a 400 that says which, never a 500.
enum Forms {
    /// `text` (a request body or a URL's query, without `?`) as `type`; `what` names it in the error.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, what: String) throws -> T {
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch let error as URLEncodedFormError {
            throw HTTPError.badRequest(describe(error, what: what))
        } catch let error as DecodingError {
            throw HTTPError.badRequest("the \(what) cannot be read: \(describe(error)).")
        }
    }

    /// A JSON body as `type`; `what` names what it carries in the 400 that says what is wrong with it.
    static func json<T: Decodable>(_ type: T.Type, _ body: ByteBuffer?, what: String) throws -> T {
        guard let body, body.readableBytes > 0 else {
            throw HTTPError.badRequest("send \(what) as a JSON object (Content-Type: application/json).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw HTTPError.badRequest("the JSON body does not fit: it is not JSON.")
            }
            throw HTTPError.badRequest("the JSON body does not fit: \(describe(error)).")
        }
    }

    /// The URL's query as `type`: a 400 for a query that cannot be read.
    static func query<T: Decodable>(_ type: T.Type, _ request: Request) throws -> T {
        try decode(type, request.uri.query ?? "", what: "query")
    }

    /// A field as typed, trimmed; nil when absent or empty.
    static func given(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// A field that must be a whole number (an edit's number); nil when absent or empty, a 400
    /// naming it when it is something else. (The decoder's own error would not name the field.)
    static func number(_ text: String?, _ name: String) throws -> Int64? {
        guard let text = given(text) else { return nil }
        guard let number = Int64(text) else { throw HTTPError.badRequest("\(name) must be a whole number, got '\(text)'.") }
        return number
    }

    private static func describe(_ error: URLEncodedFormError, what: String) -> String {
        switch error.code {
        case .duplicateKeys:
            "the \(what) names '\(error.value)' more than once (several values are sent as \(error.value)[]=…)."
        case .failedToPercentDecode:
            "the \(what) has a broken escape in '\(error.value)' (% must be followed by two hex digits, of UTF-8)."
        default:
            "the \(what) cannot be read: \(error.description)."
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty ? "a value has the wrong kind"
                : "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong kind of value"
        @unknown default: "it does not fit"
        }
    }
}
