import Foundation
import Pipeline
import TestSupport
import XCTest
import SystemPackage

/// Validation of `capture.json` sidecars, and how a set folder exposes its sidecar.
final class CaptureContextTests: XCTestCase {
    private func parse(_ json: String) throws -> CaptureContext {
        try CaptureContext.parse(Data(json.utf8), file: "inbox/set/capture.json")
    }

    private func assertRefused(_ json: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), file: file, line: line) { error in
            XCTAssertEqual("\(error)", "inbox/set/capture.json: \(message)", file: file, line: line)
        }
    }

    func testParse_everyKey_readsThem() throws {
        let context = try parse(#"{"agentId": "chef", "agentName": "Chef", "requestId": "r-1", "note": "a, \"b\"\nc"}"#)
        XCTAssertEqual(context, CaptureContext(agentId: "chef", agentName: "Chef", requestId: "r-1", note: "a, \"b\"\nc"))
    }

    func testParse_addToAlone_needsNoAgent() throws {
        XCTAssertEqual(try parse(#"{"addTo": "c-1"}"#), CaptureContext(agentId: nil, addTo: "c-1"))
        XCTAssertEqual(try parse(#"{"agentId": "chef", "addTo": "c-1"}"#), CaptureContext(agentId: "chef", addTo: "c-1"))
    }

    func testParse_nullOrEmptyOptionalKeys_countAsAbsent() throws {
        XCTAssertEqual(try parse(#"{"agentId": "chef", "agentName": null, "note": ""}"#), CaptureContext(agentId: "chef"))
    }

    func testParse_badSidecars_areRefusedNamingFileAndKey() {
        assertRefused(#"{"agentId": "chef", "agent_name": "x"}"#,
                      "agent_name: unknown key (known keys: agentId, agentName, requestId, note, addTo)")
        assertRefused(#"{"agentId": true}"#, "agentId: must be a string")
        assertRefused(#"{"agentId": "chef", "requestId": 17}"#, "requestId: must be a string")
        assertRefused(#"{"agentId": "chef", "note": ["x"]}"#, "note: must be a string")
        assertRefused(#"{"agentName": "Chef"}"#, "agentId: required, a non-empty string")
        assertRefused(#"{"agentId": ""}"#, "agentId: required, a non-empty string")
        assertRefused(#"{"addTo": "c-1", "note": "x"}"#, "agentId: required, a non-empty string")
        assertRefused(#"{"addTo": 7}"#, "addTo: must be a string")
        assertRefused(#"["chef"]"#, "must hold one JSON object")
        assertRefused("not json", "must hold one JSON object")
        assertRefused(#"{"agentId": "\#(String(repeating: "é", count: 1001))"}"#, "agentId: at most 1000 characters, got 1001")
    }

    func testParse_valueOfExactlyTheLimit_isAccepted() throws {
        let note = String(repeating: "x", count: CaptureContext.maximumLength)
        XCTAssertEqual(try parse(#"{"agentId": "a", "note": "\#(note)"}"#).note, note)
    }

    func testPhotoSet_sidecarAtRoot_isExposedAndNotAPhoto() throws {
        let folder = try TemporaryFolder.make("set")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["capture.json", "IMG_1.jpg", "sub/capture.json"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let set = try PhotoSet(name: "set", folder: FilePath(folder.path))
        XCTAssertEqual(set.contextFile, FilePath(folder.appendingPathComponent("capture.json").path))
        XCTAssertEqual(set.files.map(\.relativePath), ["IMG_1.jpg", "sub/capture.json"],
                       "only the set root's capture.json is the sidecar")
    }

    func testLoad_symbolicLink_isRefusedUnfollowed() throws {
        let folder = try TemporaryFolder.make("link")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("real.json")
        try Data(#"{"agentId": "chef"}"#.utf8).write(to: target)
        let link = folder.appendingPathComponent("capture.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertThrowsError(try CaptureContext.load(path: FilePath(link.path))) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
    }
}
