import Catalog
import FileSystem
import Foundation
import SystemPackage

/// Where uploaded photo sets are written until they are complete: `<inbox>/.uploads/<pid>/<set>/`,
/// on the inbox's file system, hidden (no run or watch takes a hidden folder for a set). A complete
/// set gets its ready marker and moves into the inbox with one rename, so the inbox only ever holds
/// complete sets; a set cut short is removed, and what a killed server left is removed by the next
/// one (`sweep()`).
public struct UploadStaging: Sendable {
    public let inbox: String
    let readyMarker: String
    /// Bytes that must stay free on the inbox's disk (`minFreeMB`): an upload that would eat into
    /// them is refused, and one that does while it streams is cut off.
    let marginBytes: UInt64

    public init(config: PipelineConfig) {
        inbox = config.inbox
        readyMarker = config.readyMarker
        marginBytes = UInt64(config.minFreeMB) << 20
    }

    /// The folder of every server's staging folders.
    public var root: String { (inbox as NSString).appendingPathComponent(".uploads") }

    /// This process's staging folder: named by its process id, so a server can tell which staged
    /// sets belong to a server that is gone.
    var ownFolder: String { (root as NSString).appendingPathComponent("\(getpid())") }

    /// Removes the staged sets of servers that no longer run (and this process's id's, left by an
    /// earlier process that had it); returns how many sets it removed. Run at start, before any upload.
    @discardableResult
    public func sweep() throws -> Int {
        guard FileOperations.isDirectory(root) else { return 0 }
        var removed = 0
        let folders = try FileOperationError.attempt("list", root) { try Directory.entries(of: root) }
        for folder in folders {
            if let pid = Int32(folder.name), pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = (root as NSString).appendingPathComponent(folder.name)
            removed += folder.isDirectory ? ((try? Directory.entries(of: path))?.count ?? 0) : 1
            try FileOperations.removeTree(path)
        }
        return removed
    }

    /// Starts a set: its server-made name (UTC date and time, then random) and an empty folder.
    public func begin(at date: Date = Date()) throws -> StagedUpload {
        try FileOperations.makeDirectories(ownFolder)
        let name = Self.setName(at: date)
        let folder = (ownFolder as NSString).appendingPathComponent(name)
        try FileOperationError.attempt("create the folder", folder) { try FilePath(folder).makeDirectory() }
        return StagedUpload(name: name, folder: folder, staging: self)
    }

    /// Refuses (`UploadRefusal.diskFull`) when writing `bytes` more would leave less than the margin free.
    public func checkSpace(for bytes: Int64) throws {
        let free: UInt64
        do {
            free = try FilePath(inbox).availableBytes()
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
        let random = (0 ..< 4).map { _ in String(format: "%02x", UInt8.random(in: 0 ... 255)) }.joined()
        return "upload-\(stamp)-\(random)"
    }
}
