import Foundation
import Hummingbird
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

final class FormsTests: XCTestCase {
    private struct Fields: Decodable {
        var capture: [String]?
        var name: String?
        var empty: String?
        var A: String?
        var edit: String?
        var count: Int?
    }

    func testDecode_plusAndEscapes_listsByBrackets_escapedNames() throws {
        let form = try Forms.decode(Fields.self, "capture[]=a&capture%5B%5D=b&name=Cr%C3%A8me+br%C3%BBl%C3%A9e&empty=&%41=1&edit=12",
                                    what: "form")
        XCTAssertEqual(form.capture, ["a", "b"], "a list, its brackets sent as they are or escaped (as browsers do)")
        XCTAssertEqual(form.name, "Crème brûlée")
        XCTAssertEqual(form.empty, "")
        XCTAssertNil(Forms.given(form.empty), "an empty field counts as absent")
        XCTAssertEqual(Forms.given(" x \n"), "x")
        XCTAssertEqual(form.A, "1")
        XCTAssertEqual(form.edit, "12")
        XCTAssertEqual(try Forms.number(form.edit, "edit"), 12)
        XCTAssertNil(try Forms.number(form.empty, "edit"), "an empty number counts as absent")
        XCTAssertThrowsError(try Forms.number("twelve", "edit")) {
            XCTAssertEqual(($0 as? HTTPError)?.body, "edit must be a whole number, got 'twelve'.")
        }
        XCTAssertEqual(try Forms.decode(Fields.self, "name=%C3", what: "form").name, "\u{FFFD}",
                       "bytes that are not UTF-8 are replaced (the decoder reads leniently), not refused")
        XCTAssertNil(try Forms.decode(Fields.self, "", what: "form").capture)
        XCTAssertNil(try Forms.decode(Fields.self, "unknown=1", what: "form").name, "names the form does not take are left")
    }

    func testDecode_brokenEscapesRepeatedNamesAndWrongKinds_areA400SayingWhich() {
        let cases: [(String, String)] = [
            ("capture=a&capture=b", "names 'capture' more than once (several values are sent as capture[]"),
            ("name=x&name=y", "names 'name' more than once"),
            ("name=%zz", "broken escape"), ("name=100%", "broken escape"), ("name=%4", "broken escape"),
            ("count=twelve", "a value has the wrong kind"),
            ("capture=a", "'capture' has the wrong kind of value"),
        ]
        for (text, words) in cases {
            XCTAssertThrowsError(try Forms.decode(Fields.self, text, what: "form"), text) { error in
                let problem = ErrorMiddleware.problem(error, path: "/captures/merge")
                XCTAssertEqual(problem.status, .badRequest, text)
                XCTAssertTrue(problem.body?.contains(words) == true, "\(text): \(problem.body ?? "")")
            }
        }
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
        XCTAssertEqual(UploadRoutes.boundary("multipart/form-data; boundary=----WebKitFormBoundaryx7"), "----WebKitFormBoundaryx7")
        XCTAssertEqual(UploadRoutes.boundary(#"Multipart/Form-Data;boundary="a b""#), "a b")
        XCTAssertNil(UploadRoutes.boundary("multipart/mixed; boundary=x"))
        XCTAssertNil(UploadRoutes.boundary("application/json"))
        XCTAssertNil(UploadRoutes.boundary("multipart/form-data"))
        XCTAssertNil(UploadRoutes.boundary("multipart/form-data; boundary="))
    }
}

final class AllowedHostsTests: XCTestCase {
    func testLoopbackServer_takesItsOwnNamesOnly_notTheirRebindingCousins() {
        let hosts = AllowedHosts(listening: "127.0.0.1", allowed: [], machine: { ["unused"] })
        for allowed in ["localhost", "localhost:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:8080", "LOCALHOST:1", "Localhost"] {
            XCTAssertTrue(hosts.allows(allowed), allowed)
        }
        for refused in ["127.0.0.1.attacker.example", "127.0.0.1.attacker.example:8080", "127.0.0.1.nip.io", "localhost.example",
                        "localhost.", "127.0.0.1.", "0x7f.1", "0x7f000001", "2130706433", "127.1", "127.0.0.2", "[::ffff:127.0.0.1]",
                        "[0:0:0:0:0:0:0:1]", "[::1", "::1", "localhost:", "localhost:80:80", "localhost:port", "localhost:123456",
                        "evil.example", "", "unused", "local host", "localhost\u{0}.example"] {
            XCTAssertFalse(hosts.allows(refused), refused)
        }
    }

    func testListenAddressAndAllowedHosts_areAddedExactly_andEveryAddressListensAddsThisMachinesNames() {
        let lan = AllowedHosts(listening: "192.168.1.5", allowed: ["Photos.Example.com"], machine: { ["box"] })
        XCTAssertTrue(lan.allows("192.168.1.5:8080"))
        XCTAssertTrue(lan.allows("photos.example.com"))
        XCTAssertFalse(lan.allows("photos.example.com.evil.example"))
        XCTAssertFalse(lan.allows("box"), "this machine's names only where it listens on every address")
        let everywhere = AllowedHosts(listening: "0.0.0.0", allowed: [], machine: { ["box", "10.0.0.7", "fe80::1"] })
        XCTAssertTrue(everywhere.allows("box:8080"))
        XCTAssertTrue(everywhere.allows("10.0.0.7"))
        XCTAssertTrue(everywhere.allows("[fe80::1]:8080"))
        XCTAssertFalse(everywhere.allows("0.0.0.0.evil.example"))
        XCTAssertTrue(AllowedHosts(listening: "::1", allowed: [], machine: { [] }).allows("[::1]:9"))
    }

    func testAllowedHostOption_takesNamesWithoutPorts() throws {
        XCTAssertNoThrow(try ServeSettings(listen: "127.0.0.1:0", token: nil, readOnly: false, allowedHosts: ["photos.example.com", "[fd00::5]"]))
        for bad in ["photos.example.com:443", "http://photos.example.com", "a b", "", "example.com.", "[zz]"] {
            XCTAssertThrowsError(try ServeSettings(listen: "127.0.0.1:0", token: nil, readOnly: false, allowedHosts: [bad]), bad)
        }
    }
}
