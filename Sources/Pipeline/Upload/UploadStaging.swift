import Catalog
import FileSystem
package import Foundation
import Synchronization
package import SystemPackage

/// Where uploaded photo sets are written until they are complete: `<inbox>/.uploads/<server>/<set>/`,
/// on the inbox's file system, hidden (no run or watch takes a hidden folder for a set). A complete
/// set gets its ready marker and moves into the inbox with one rename, so the inbox only ever holds
/// complete sets; a set cut short is removed, and what a killed server left is removed by the next
/// one (`sweep()`).
///
/// Each server's folder is locked (`flock` on the folder) for as long as the server runs: the
/// kernel lets the lock go however the process ends, and a sweep removes only folders whose lock
/// it can take. A process id could not tell: ids are reused, and servers in containers sharing
/// an inbox have the same ones.
package struct UploadStaging: Sendable {
    package let inbox: FilePath
    let readyMarker: String
    /// Bytes that must stay free on the inbox's disk (`minFreeMB`): an upload that would eat into
    /// them is refused, and one that does while it streams is cut off.
    let marginBytes: UInt64

    package init(config: PipelineConfig) {
        inbox = config.inbox
        readyMarker = config.readyMarker
        marginBytes = UInt64(config.minFreeMB) << 20
    }

    /// The folder of every server's staging folders.
    package var root: FilePath { inbox.appending(".uploads") }

    /// This process's staging folder's name: its process id, for people, and a random part, so
    /// that no two servers share one.
    private static let processFolderName = "\(getpid())-\(randomHex())"
    /// This process's staging folders (one for each inbox it has staged uploads in), open and
    /// locked, once made (`holdOwnFolder()`).
    private static let heldFolders = Mutex<[FilePath: FileDescriptor]>([:])

    /// This process's staging folder.
    var ownFolder: FilePath { root.appending(Self.processFolderName) }

    /// Makes this process's staging folder, locked until the process ends; again when it is gone.
    /// The folder is made and locked under a hidden name, then renamed: no sweep sees it unlocked.
    func holdOwnFolder() throws {
        try Self.heldFolders.withLock { heldFolders in
            if heldFolders[ownFolder] != nil, FileOperations.isDirectory(ownFolder) { return }
            try? heldFolders.removeValue(forKey: ownFolder)?.close()
            try FileOperations.makeDirectories(root)
            let fresh = root.appending(".new-" + Self.processFolderName)
            try? FileOperations.removeTree(fresh)
            try FileOperationError.attempt("create the folder", fresh) { try fresh.makeDirectory() }
            let folder = try Self.locked(fresh)
            do {
                try FileOperations.move(fresh, to: ownFolder)
            } catch {
                try? folder.close()
                throw error
            }
            heldFolders[ownFolder] = folder
        }
    }

    /// Removes the staged sets of servers that no longer run: every folder whose lock it can take
    /// (this process's own is locked too), and stray files; returns how many sets and files it
    /// removed. Run at start, before any upload.
    @discardableResult
    package func sweep() throws -> Int {
        guard FileOperations.isDirectory(root) else { return 0 }
        var removed = 0
        let entries = try FileOperationError.attempt("list", root) { try Directory.entries(of: root) }
        for entry in entries {
            let path = root.appending(entry.name)
            guard entry.isDirectory else {
                try FileOperations.removeTree(path)
                removed += 1
                continue
            }
            // Its server runs (or the folder cannot be opened or locked: left alone, never removed on a guess).
            guard let folder = try? Self.locked(path) else { continue }
            defer { try? folder.close() }
            removed += (try? Directory.entries(of: path))?.count ?? 0
            try FileOperations.removeTree(path)
        }
        return removed
    }

    /// The folder at `path`, open and locked (`flock`, exclusive); throws when another process
    /// holds its lock. The lock lasts until the descriptor is closed.
    private static func locked(_ path: FilePath) throws -> FileDescriptor {
        let folder = try FileOperationError.attempt("open", path) {
            try FileDescriptor.open(path, .readOnly, options: [.directory, .noFollow, .closeOnExec])
        }
        do {
            try FileOperationError.attempt("lock", path) { try folder.lock(LOCK_EX | LOCK_NB) }
        } catch {
            try? folder.close()
            throw error
        }
        return folder
    }

    /// Starts a set: its server-made name (UTC date and time, then random) and an empty folder.
    package func begin(at date: Date = Date()) throws -> StagedUpload {
        try holdOwnFolder()
        let name = Self.setName(at: date)
        let folder = ownFolder.appending(name)
        try FileOperationError.attempt("create the folder", folder) { try folder.makeDirectory() }
        return StagedUpload(name: name, folder: folder, staging: self)
    }

    /// Refuses (`UploadRefusal.diskFull`) when writing `bytes` more would leave less than the margin free.
    package func checkSpace(for bytes: Int64) throws {
        let free: UInt64
        do {
            free = try inbox.availableBytes()
        } catch {
            throw UploadRefusal(.diskFull, "cannot measure the free space of the inbox's disk (\(error)).")
        }
        let needed = marginBytes + UInt64(max(0, bytes))
        guard free >= needed else {
            throw UploadRefusal(.diskFull, "the inbox's disk has \(free >> 20) MB free; this upload needs \(max(0, bytes) >> 20) MB "
                + "and \(marginBytes >> 20) MB must stay free (minFreeMB). Try again once space is freed.")
        }
    }

    /// `upload-20261126-094512-3f9a0c1e`: sortable by time, unguessable, never a client's words.
    static func setName(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", parts.year!, parts.month!, parts.day!,
                           parts.hour!, parts.minute!, parts.second!)
        return "upload-\(stamp)-\(randomHex())"
    }

    /// Eight random hexadecimal digits.
    private static func randomHex() -> String {
        (0 ..< 4).map { _ in String(format: "%02x", UInt8.random(in: 0 ... 255)) }.joined()
    }
}
