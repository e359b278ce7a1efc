import FileSystem
import Logging
import Foundation
import SystemPackage

/// Where a draft's files are, and how they are read, written and locked.
extension DraftStore {
    func folder(of id: String) -> FilePath { root.appending(id) }

    func thumbnailPath(of photo: DraftPhoto, in id: String) -> FilePath {
        folder(of: id).appending(Self.thumbsFolderName).appending("\(photo.number).jpg")
    }

    /// Calls `body` with draft `id` of `owner`, holding its lock; its changes are its own to write.
    func withDraft<R>(_ id: String, owner: String, _ body: (inout Draft) throws -> R) throws -> R {
        guard Self.isDraftId(id) else { throw DraftError.notFound }
        let path = folder(of: id)
        let held: FileDescriptor
        do {
            held = try Self.locked(path, wait: true)
        } catch let error as FileOperationError where Errno(rawValue: error.code) == .noSuchFileOrDirectory {
            throw DraftError.notFound
        }
        defer { try? held.close() }
        guard var draft = try? read(path), draft.owner == owner, FileOperations.isDirectory(path.appending(Self.setFolderName)) else {
            throw DraftError.notFound
        }
        return try body(&draft)
    }

    func read(_ folder: FilePath) throws -> Draft {
        let bytes = try FileDescriptor.contents(of: folder.appending(Self.metadataName), options: [.noFollow], limit: 1 << 20)
        return try Self.decoder.decode(Draft.self, from: Data(bytes))
    }

    func write(_ draft: Draft, in folder: FilePath) throws {
        try FileOperations.replace(folder.appending(Self.metadataName), with: Array(try Self.encoder.encode(draft)))
    }

    /// Reads photo `file` of the draft's set as a run would: its barcodes, and its thumbnail, kept.
    func read(_ file: String, number: Int, role: DraftPhoto.Role, in id: String) -> DraftPhoto {
        let path = folder(of: id).appending(Self.setFolderName).appending(file)
        var photo = DraftPhoto(number: number, role: role, file: file, codes: [], unconfirmed: [], problem: nil, hasThumbnail: false)
        switch analyzer.analyse(InboxFile(setName: id, relativePath: file, absolutePath: path)) {
        case .analysed(let analysed):
            photo.codes = analysed.barcodes.map(DraftCode.init)
            photo.unconfirmed = analysed.unconfirmedBarcodes.map(DraftCode.init)
            do {
                try FileOperations.move(analysed.thumbnail.path, to: thumbnailPath(of: photo, in: id))
                photo.hasThumbnail = true
            } catch {
                try? analysed.thumbnail.path.remove()
                logger.warning("a draft photo's thumbnail could not be kept", metadata: ["draft": "\(id)", "error": "\(error)"])
            }
        case .rejected(_, let error):
            photo.problem = error.reason
        case .catalogued:
            break
        }
        return photo
    }

    func removeFiles(of photo: DraftPhoto, in id: String) throws {
        try FileOperations.remove(folder(of: id).appending(Self.setFolderName).appending(photo.file))
        try FileOperations.remove(thumbnailPath(of: photo, in: id))
    }

    /// The folder at `path`, open and locked (`flock`, exclusive): waiting for the lock, or
    /// throwing when another call holds it.
    static func locked(_ path: FilePath, wait: Bool) throws -> FileDescriptor {
        let folder = try FileOperationError.attempt("open", path) {
            try FileDescriptor.open(path, .readOnly, options: [.directory, .noFollow, .closeOnExec])
        }
        do {
            try FileOperationError.attempt("lock", path) { try folder.lock(wait ? LOCK_EX : LOCK_EX | LOCK_NB) }
        } catch {
            try? folder.close()
            throw error
        }
        return folder
    }

    /// `date` to the whole second, as `draft.json` keeps it (ISO 8601).
    static func second(of date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    static func newId() -> String {
        (0 ..< 16).map { _ in String(format: "%02x", UInt8.random(in: 0 ... 255)) }.joined()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
