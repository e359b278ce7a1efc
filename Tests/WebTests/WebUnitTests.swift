import Foundation
@testable import Web
import XCTest

final class ByteRangeTests: XCTestCase {
    func testHeader_eachFormAgainstAFileOf1000Bytes() {
        let cases: [(String?, ByteRange)] = [
            (nil, .whole), ("bytes=0-99", .part(0 ... 99)), ("bytes=990-", .part(990 ... 999)), ("bytes=-10", .part(990 ... 999)),
            ("bytes=500-5000", .part(500 ... 999)), ("bytes=-5000", .part(0 ... 999)), ("bytes=0-0,5-9", .whole),
            ("items=0-9", .whole), ("bytes=1000-", .unsatisfiable), ("bytes=9-1", .unsatisfiable), ("bytes=-0", .unsatisfiable),
            ("bytes=x-y", .unsatisfiable), ("bytes=", .unsatisfiable),
        ]
        for (header, expected) in cases {
            XCTAssertEqual(ByteRange(header: header, size: 1000), expected, header ?? "none")
        }
        XCTAssertEqual(ByteRange(header: "bytes=0-", size: 0), .unsatisfiable, "an empty file has no byte 0")
    }
}

final class FormBodyTests: XCTestCase {
    func testFields_decodePlusAndEscapes_keepRepeatedNames_dropBrokenEscapes() {
        let form = FormBody("capture=a&capture=b&name=Cr%C3%A8me+br%C3%BBl%C3%A9e&empty=&broken=%zz&%41=1")
        XCTAssertEqual(form.values("capture"), ["a", "b"])
        XCTAssertEqual(form.value("name"), "Crème brûlée")
        XCTAssertNil(form.value("empty"))
        XCTAssertNil(form.value("broken"), "a value that cannot be decoded counts as empty")
        XCTAssertEqual(form.value("A"), "1")
    }
}

final class ServeSettingsTests: XCTestCase {
    func testListen_formsAndWhatNeedsAToken() throws {
        let local = try ServeSettings(listen: "127.0.0.1:8080", token: nil, readOnly: false)
        XCTAssertEqual([local.host, String(local.port)], ["127.0.0.1", "8080"])
        XCTAssertTrue(local.isLoopback)
        XCTAssertEqual(try ServeSettings(listen: "9000", token: nil, readOnly: false).host, "127.0.0.1")
        XCTAssertEqual(try ServeSettings(listen: "[::1]:0", token: nil, readOnly: false).host, "::1")
        XCTAssertEqual(try ServeSettings(listen: "localhost:1", token: nil, readOnly: false).url(port: 1), "http://localhost:1/")
        XCTAssertEqual(try ServeSettings(listen: "[::1]:0", token: nil, readOnly: false).url(port: 5), "http://[::1]:5/")
        XCTAssertThrowsError(try ServeSettings(listen: "0.0.0.0:8080", token: nil, readOnly: false)) {
            XCTAssertEqual($0 as? ServeSettingsError, .tokenNeeded(host: "0.0.0.0"))
        }
        XCTAssertThrowsError(try ServeSettings(listen: "0.0.0.0:8080", token: "", readOnly: false), "an empty token is none")
        XCTAssertThrowsError(try ServeSettings(listen: "192.168.1.2:80", token: "short", readOnly: false)) {
            XCTAssertEqual($0 as? ServeSettingsError, .weakToken(length: 5))
        }
        XCTAssertFalse(try ServeSettings(listen: "192.168.1.2:80", token: String(repeating: "k", count: 16), readOnly: false).isLoopback)
        for bad in ["", ":", "host", "host:", "host:99999", "::1:80", "[::1]80", "a:b"] {
            XCTAssertThrowsError(try ServeSettings(listen: bad, token: nil, readOnly: false), bad)
        }
    }
}

final class SessionsTests: XCTestCase {
    func testSessions_eachItsOwnCSRFToken_endAndExpire() {
        let sessions = Sessions(capacity: 2, lifetime: 60)
        let start = Date(timeIntervalSince1970: 1000)
        let a = sessions.start(now: start)
        let b = sessions.start(now: start.addingTimeInterval(1))
        XCTAssertNotEqual(a.csrfToken, b.csrfToken)
        XCTAssertEqual(a.id.count, 64)
        XCTAssertEqual(sessions.csrfToken(of: a.id, now: start), a.csrfToken)
        XCTAssertNil(sessions.csrfToken(of: a.id, now: start.addingTimeInterval(61)), "expired")
        _ = sessions.start(now: start.addingTimeInterval(2))
        _ = sessions.start(now: start.addingTimeInterval(3))
        XCTAssertNil(sessions.csrfToken(of: b.id, now: start), "the oldest went when the capacity was reached")
        XCTAssertTrue(Sessions.same("abc", "abc"))
        XCTAssertFalse(Sessions.same("abc", "abd"))
        XCTAssertFalse(Sessions.same("abc", "abcd"))
    }

    func testSafeNext_onlyAPathOfThisServer() {
        XCTAssertEqual(WebServer.safeNext("/captures/x?edit=1"), "/captures/x?edit=1")
        for unsafe in [nil, "", "https://evil.example/", "//evil.example/", "/\\evil.example", "captures"] {
            XCTAssertEqual(WebServer.safeNext(unsafe), "/", unsafe ?? "nil")
        }
    }
}

final class UploadParsingTests: XCTestCase {
    func testContentDisposition_nameFilenameQuotesAndTheExtendedForm() {
        XCTAssertEqual(ContentDisposition(#"form-data; name="photo"; filename="IMG 1.jpg""#),
                       ContentDisposition(name: "photo", filename: "IMG 1.jpg"))
        XCTAssertEqual(ContentDisposition(#"form-data; name=agentId"#), ContentDisposition(name: "agentId", filename: nil))
        XCTAssertEqual(ContentDisposition(#"form-data; name="photo"; filename="a;b \"c\".jpg""#).filename, #"a;b "c".jpg"#)
        XCTAssertEqual(ContentDisposition(#"form-data; name="photo"; filename="x.jpg"; filename*=UTF-8''cr%C3%A8me.jpg"#).filename,
                       "crème.jpg")
        XCTAssertEqual(ContentDisposition(#"form-data; name="photo"; filename="""#).filename, "")
        XCTAssertNil(ContentDisposition("form-data").name)
    }

    func testBoundary_onlyOfMultipartFormData() {
        XCTAssertEqual(WebServer.boundary("multipart/form-data; boundary=----WebKitFormBoundaryx7"), "----WebKitFormBoundaryx7")
        XCTAssertEqual(WebServer.boundary(#"Multipart/Form-Data;boundary="a b""#), "a b")
        XCTAssertNil(WebServer.boundary("multipart/mixed; boundary=x"))
        XCTAssertNil(WebServer.boundary("application/json"))
        XCTAssertNil(WebServer.boundary("multipart/form-data"))
        XCTAssertNil(WebServer.boundary("multipart/form-data; boundary="))
    }
}
