package import Foundation
package import SystemPackage

/// Who a photo set was captured for, from the `capture.json` sidecar at the root of the set folder:
/// `{"agentId": "chef", "agentName": "Practical Chef", "requestId": "r-17", "note": "…"}`.
///
/// Stored on every capture of the set. `agentId` is required, except in a sidecar that holds only
/// `addTo`: the capture the set's photos join (`{"addTo": "<capture id>"}`, written by the capture
/// flow of `ingest serve` when a person adds photos to a product already catalogued; the run merges
/// the set's captures into it as an edit). A key given as `null` or `""` counts as absent.
package struct CaptureContext: Sendable, Equatable {
    /// The name of the sidecar file.
    package static let fileName = "capture.json"
    /// The longest value a key may hold, in characters.
    package static let maximumLength = 1000
    /// A larger sidecar is refused unread.
    static let maximumBytes: Int64 = 64 * 1024

    package var agentId: String?
    package var agentName: String?
    package var requestId: String?
    package var note: String?
    /// The id of the catalogued capture the set's photos join.
    package var addTo: String?

    package init(agentId: String?, agentName: String? = nil, requestId: String? = nil, note: String? = nil,
                 addTo: String? = nil) {
        self.agentId = agentId
        self.agentName = agentName
        self.requestId = requestId
        self.note = note
        self.addTo = addTo
    }

    /// Reads and validates the sidecar at `path`, never following a symbolic link.
    package static func load(path: FilePath) throws(CaptureContextError) -> CaptureContext {
        let snapshot: FileSnapshot
        do {
            snapshot = try FileSnapshot.read(path, maxBytes: maximumBytes)
        } catch {
            throw CaptureContextError(file: path.string, message: "cannot be used: \(error.reason)")
        }
        return try parse(Data(snapshot.bytes), file: path.string)
    }

    /// Validates sidecar JSON; every problem names `file` and the key.
    package static func parse(_ data: Data, file: String) throws(CaptureContextError) -> CaptureContext {
        guard let object = try? JSONSerialization.jsonObject(with: data), let keys = object as? [String: Any] else {
            throw CaptureContextError(file: file, message: "must hold one JSON object")
        }
        let known = ["agentId", "agentName", "requestId", "note", "addTo"]
        if let unknown = keys.keys.sorted().first(where: { !known.contains($0) }) {
            throw CaptureContextError(file: file, message: "\(unknown): unknown key (known keys: \(known.joined(separator: ", ")))")
        }
        func text(_ key: String) throws(CaptureContextError) -> String? {
            guard let raw = keys[key], !(raw is NSNull) else { return nil }
            guard let value = raw as? String else {
                throw CaptureContextError(file: file, message: "\(key): must be a string")
            }
            guard value.count <= maximumLength else {
                throw CaptureContextError(file: file, message: "\(key): at most \(maximumLength) characters, got \(value.count)")
            }
            return value.isEmpty ? nil : value
        }
        let context = CaptureContext(agentId: try text("agentId"), agentName: try text("agentName"),
                                     requestId: try text("requestId"), note: try text("note"), addTo: try text("addTo"))
        guard context.agentId != nil || (context.addTo != nil && context.agentName == nil && context.requestId == nil
                                         && context.note == nil) else {
            throw CaptureContextError(file: file, message: "agentId: required, a non-empty string")
        }
        return context
    }
}
