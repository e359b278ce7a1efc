import FileSystem
package import Foundation
package import Logging
package import SystemPackage

/// The drafts of the capture flow, on disk: `<inbox>/.drafts/<id>/` holds the draft's `draft.json`,
/// its photos in `set/` and their thumbnails in `thumbs/`. Hidden, so no run or watch takes it for
/// a set; on the inbox's file system, so that saving is one rename of `set/` into the inbox (with its
/// `capture.json` and ready marker), after which the rest of the draft folder is removed. A server
/// restart keeps the drafts; `sweep` removes those untouched for `draftIdleMinutes`.
///
/// Every call names the draft's owner (`Draft.owner`): a draft asked for by anyone else is not
/// found, as one that does not exist. A draft's calls are one at a time (`flock` on its folder), from
/// any process sharing the inbox. Blocking: call it off the event loops.
package final class DraftStore: Sendable {
    package let config: PipelineConfig
    let analyzer: PhotoAnalyzer
    let staging: UploadStaging
    let logger: Logger
    /// The most drafts one owner may keep at once: a person drafts one capture at a time, in a
    /// few tabs at most; a client making drafts in a loop is stopped here.
    package static let maximumDraftsPerOwner = 20
    static let metadataName = "draft.json"
    static let setFolderName = "set"
    static let thumbsFolderName = "thumbs"

    /// Makes the drafts' folder and starts the image libraries; throws when either fails.
    package init(config: PipelineConfig, logger: Logger) throws {
        self.config = config
        self.logger = logger
        staging = UploadStaging(config: config)
        let root = config.inbox.appending(".drafts")
        try FileOperations.makeDirectories(root.appending(".thumbnails"))
        analyzer = try PhotoAnalyzer(config: config, stagingFolder: root.appending(".thumbnails"), logger: logger)
    }

    /// The folder of every draft.
    package var root: FilePath { config.inbox.appending(".drafts") }

    /// Whether `id` can name a draft: 32 lower-case hexadecimal digits, so never a path.
    package static func isDraftId(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0)
            || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains($0) }
    }

    // MARK: - Drafts

    /// A new, empty draft of `owner`.
    package func create(owner: String, now: Date = Date()) throws -> Draft {
        guard drafts(of: owner).count < Self.maximumDraftsPerOwner else {
            throw DraftError.tooMany(Self.maximumDraftsPerOwner)
        }
        try staging.checkSpace(for: 0)
        let id = Self.newId()
        let draft = Draft(id: id, owner: owner, created: Self.second(of: now), touched: Self.second(of: now), photos: [], lastNumber: 0)
        // Made whole under a hidden name, then renamed: no draft is ever seen half made.
        // Locked while it is made: a sweep removes only a half-made draft it can lock.
        let fresh = root.appending(".new-" + id)
        try FileOperationError.attempt("create the folder", fresh) { try fresh.makeDirectory() }
        let held = try Self.locked(fresh, wait: false)
        defer { try? held.close() }
        do {
            for name in [Self.setFolderName, Self.thumbsFolderName] {
                let folder = fresh.appending(name)
                try FileOperationError.attempt("create the folder", folder) { try folder.makeDirectory() }
            }
            try write(draft, in: fresh)
            try FileOperations.move(fresh, to: root.appending(id))
        } catch {
            try? FileOperations.removeTree(fresh)
            throw error
        }
        return draft
    }

    /// Draft `id` of `owner`; throws `DraftError.notFound` for any other.
    package func draft(_ id: String, owner: String) throws -> Draft {
        try withDraft(id, owner: owner) { $0 }
    }

    /// The drafts of `owner`, oldest first; drafts that cannot be read are left out.
    package func drafts(of owner: String) -> [Draft] {
        let entries = (try? Directory.entries(of: root)) ?? []
        return entries.filter { Self.isDraftId($0.name) }
            .compactMap { try? read(root.appending($0.name)) }
            .filter { $0.owner == owner }
            .sorted { $0.created < $1.created }
    }

    /// Removes draft `id` and its files at once.
    package func cancel(_ id: String, owner: String) throws {
        try withDraft(id, owner: owner) { _ in try FileOperations.removeTree(folder(of: id)) }
    }

    // MARK: - Photos

    /// Where an upload to draft `id` writes its photos until they are whole (`addPhotos`): a folder
    /// of its own in the draft, so that an upload cut short leaves nothing in the draft's set.
    /// Checks that the draft takes another photo and that the disk has room; returns the upload and
    /// how many photos the draft has room for.
    package func beginUpload(to id: String, owner: String) throws -> (upload: StagedUpload, room: Int) {
        try withDraft(id, owner: owner) { draft in
            guard draft.photos.count < config.upload.maxFiles else { throw DraftError.full(config.upload.maxFiles) }
            try staging.checkSpace(for: 0)
            let name = "incoming-" + Self.newId()
            let incoming = folder(of: id).appending(name)
            try FileOperationError.attempt("create the folder", incoming) { try incoming.makeDirectory() }
            return (StagedUpload(name: name, folder: incoming, staging: staging, taken: Set(draft.photos.map(\.file))),
                    config.upload.maxFiles - draft.photos.count)
        }
    }

    /// Moves the photos of `upload` (whole and flushed) into draft `id`'s set as `role`'s, reads
    /// each (its thumbnail and barcodes, as a run would), and returns the draft. A barcode, front or
    /// label photo takes the place of the one taken before (a retake); past `uploadMaxFiles` photos,
    /// none is added. The upload's folder is removed whatever happens.
    package func addPhotos(of upload: StagedUpload, as role: DraftPhoto.Role, to id: String, owner: String,
                           now: Date = Date()) throws -> Draft {
        defer { upload.discard() }
        return try withDraft(id, owner: owner) { draft in
            let replaced = role == .more ? [] : draft.photos.filter { $0.role == role }
            let kept = role == .more ? upload.photos : Array(upload.photos.suffix(1))
            guard draft.photos.count - replaced.count + kept.count <= config.upload.maxFiles else {
                throw DraftError.full(config.upload.maxFiles)
            }
            let set = folder(of: id).appending(Self.setFolderName)
            for old in replaced { try removeFiles(of: old, in: id) }
            draft.photos.removeAll { photo in replaced.contains { $0.number == photo.number } }
            for file in kept {
                try FileOperations.move(upload.folder.appending(file), to: set.appending(file))
                draft.lastNumber += 1
                draft.photos.append(read(file, number: draft.lastNumber, role: role, in: id))
            }
            try DurableFile.syncFolder(set)
            draft.touched = Self.second(of: now)
            try write(draft, in: folder(of: id))
            return draft
        }
    }

    /// Removes photo `number` of draft `id` (its file and thumbnail); returns the draft.
    package func removePhoto(_ number: Int, from id: String, owner: String, now: Date = Date()) throws -> Draft {
        try withDraft(id, owner: owner) { draft in
            guard let photo = draft.photos.first(where: { $0.number == number }) else { throw DraftError.noSuchPhoto(number) }
            try removeFiles(of: photo, in: id)
            draft.photos.removeAll { $0.number == number }
            draft.touched = Self.second(of: now)
            try write(draft, in: folder(of: id))
            return draft
        }
    }

    /// The thumbnail of photo `number` of draft `id`: a JPEG `thumbnailWidth` wide, upright.
    package func thumbnail(_ number: Int, of id: String, owner: String) throws -> [UInt8] {
        try withDraft(id, owner: owner) { draft in
            guard let photo = draft.photos.first(where: { $0.number == number }), photo.hasThumbnail else {
                throw DraftError.noSuchPhoto(number)
            }
            return try FileDescriptor.contents(of: thumbnailPath(of: photo, in: id), options: [.noFollow], limit: 16 << 20)
        }
    }

    // MARK: - Saving

    /// Puts draft `id` into the inbox as one set, with one rename: its photos, a `capture.json`
    /// when `context` says anything, and the ready marker; then removes the rest of the draft.
    /// Returns the set's name (`upload-…`, as `POST /api/sets` names one).
    package func save(_ id: String, owner: String, context: CaptureContext?, now: Date = Date()) throws -> String {
        try withDraft(id, owner: owner) { draft in
            guard !draft.photos.isEmpty else { throw DraftError.empty }
            let draftFolder = folder(of: id)
            let set = draftFolder.appending(Self.setFolderName)
            let name = UploadStaging.setName(at: now)
            let upload = StagedUpload(name: name, folder: set, staging: staging)
            if let context { try upload.write(context) }
            try FileOperations.write([], to: set.appending(config.readyMarker))
            try DurableFile.syncFolder(set)
            try FileOperationError.attempt("move \(set) to", upload.inboxFolder) { try set.rename(to: upload.inboxFolder) }
            try DurableFile.syncFolder(config.inbox)
            // Saved: a draft folder left without its set (a crash here) is removed by the next sweep.
            try? FileOperations.removeTree(draftFolder)
            logger.notice("draft saved into the inbox", metadata: ["draft": "\(id)", "set": "\(name)", "photos": "\(draft.photos.count)"])
            return name
        }
    }

    // MARK: - Cleaning

    /// Removes every draft untouched for `draftIdleMinutes` (or left half made, or already saved,
    /// or anything else in the drafts' folder),
    /// and thumbnails a stopped server left staged; a draft in use by another call is left alone.
    /// Returns how many drafts it removed.
    @discardableResult
    package func sweep(now: Date = Date()) throws -> Int {
        let idle = TimeInterval(config.upload.draftIdleMinutes * 60)
        var removed = 0
        let entries = try FileOperationError.attempt("list", root) { try Directory.entries(of: root) }
        for entry in entries where entry.name != ".thumbnails" {
            let path = root.appending(entry.name)
            guard entry.isDirectory else {
                try FileOperations.remove(path)
                removed += 1
                continue
            }
            guard let held = try? Self.locked(path, wait: false) else { continue }
            defer { try? held.close() }
            let draft = Self.isDraftId(entry.name) ? try? read(path) : nil
            let stale = draft.map { now.timeIntervalSince($0.touched) >= idle
                || !FileOperations.isDirectory(path.appending(Self.setFolderName)) } ?? true
            guard stale else { continue }
            try FileOperations.removeTree(path)
            removed += 1
            logger.info("removed a draft", metadata: ["draft": "\(entry.name)", "touched": "\(draft?.touched.description ?? "never")"])
        }
        return removed
    }
}

extension DraftCode {
    init(_ reading: BarcodeReading) {
        self.init(text: reading.text, symbology: reading.symbology, gtin13: reading.gtin13)
    }
}
