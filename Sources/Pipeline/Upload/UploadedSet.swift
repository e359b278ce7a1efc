package import Catalog
import FileSystem
import Foundation
import SystemPackage

/// What became of an uploaded set, for `GET /api/sets/{name}`: still in the inbox (waiting, or
/// being ingested), ingested (its captures), or quarantined (every photo set aside, with reasons).
package struct UploadedSet: Sendable, Encodable, Equatable {
    package enum State: String, Sendable, Encodable {
        case waiting, ingesting, ingested, quarantined
    }

    /// A photo of the set that was set aside: the quarantine's, or a duplicate of a catalogued one.
    package struct SetAside: Sendable, Encodable, Equatable {
        package var file: String
        package var reason: String
    }

    package var set: String
    package var state: State
    /// The set's captures, once ingested.
    package var captures: [String]
    package var setAside: [SetAside]

    /// Whether `name` is a name `UploadStaging` makes: the only names looked up (no path of the
    /// client's ever reaches the file system).
    package static func isUploadName(_ name: String) -> Bool {
        name.range(of: #"^upload-[0-9]{8}-[0-9]{6}-[0-9a-f]{8}$"#, options: .regularExpression) != nil
    }

    /// The set `name` as it is now; nil when no such set was uploaded (or it left no trace: a set of
    /// hidden files only). `isIngesting` says whether a watch in this process is ingesting it now:
    /// while it is, the set is `ingesting` even once its captures are committed, because the watch
    /// has yet to clear its folder from the inbox; `ingested` and `quarantined` are final.
    package static func look(_ name: String, config: PipelineConfig, catalogue: Catalogue,
                            isIngesting: (String) -> Bool) throws -> UploadedSet? {
        guard isUploadName(name) else { return nil }
        // Asked before and after the looks below: a set the watch starts or finishes meanwhile is
        // reported as still ingesting, never as done before its folder is gone.
        let ingestingBefore = isIngesting(name)
        // A set none of whose photos was catalogued keeps its capture.json in the inbox (with the
        // reason it was not used); only photos still there make it waiting.
        let folder = config.inbox.appending(name)
        let inInbox = ((try? Directory.entries(of: folder)) ?? []).contains { !$0.isHidden && $0.name != CaptureContext.fileName }
        var captures = try catalogue.captures(matching: CaptureFilter(setName: name)).map(\.id)
        if captures.isEmpty, !inInbox, let joined = try joinedCapture(name, config: config, catalogue: catalogue) {
            captures = [joined]
        }
        let aside = setAside(name, in: config.quarantine)
        let state: State
        if ingestingBefore || isIngesting(name) {
            state = .ingesting
        } else if !captures.isEmpty {
            state = .ingested
        } else if inInbox {
            state = .waiting
        } else if !aside.isEmpty {
            state = .quarantined
        } else {
            return nil
        }
        return UploadedSet(set: name, state: state, captures: captures, setAside: aside)
    }

    /// The capture that holds set `name`'s photos although it is another set's: the one its
    /// `capture.json` named (`addTo`), which its captures were merged into. Found by the thumbnail of
    /// one of the set's originals in the library (an indexed look-up); nil when there is none.
    static func joinedCapture(_ name: String, config: PipelineConfig, catalogue: Catalogue) throws -> String? {
        let layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
        let originals = config.library.pushing(FilePath(layout.originalPath(set: name, file: "")))
        let files = ((try? Directory.entries(of: originals)) ?? []).filter { !$0.isHidden && !$0.isDirectory && $0.name != CaptureContext.fileName }
        guard let file = files.first else { return nil }
        return try catalogue.photo(thumbPath: layout.thumbPath(set: name, file: file.name))?.captureId
    }

    /// The photos of set `name` in the quarantine and among its duplicates, from their `.reason` notes.
    static func setAside(_ name: String, in quarantine: FilePath) -> [SetAside] {
        let folders = [quarantine, quarantine.appending("duplicates")]
        return folders.flatMap { folder -> [SetAside] in
            let setFolder = folder.appending(name)
            let notes = ((try? Directory.entries(of: setFolder)) ?? []).filter { $0.name.hasSuffix(".reason") }
            return notes.map { entry in
                let text = (try? FileDescriptor.contents(of: setFolder.appending(entry.name), options: .noFollow)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return SetAside(file: String(entry.name.dropLast(".reason".count)),
                                reason: FileOperations.reason(inNote: text) ?? "set aside")
            }
        }.sorted { $0.file < $1.file }
    }
}
