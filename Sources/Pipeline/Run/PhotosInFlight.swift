import FileSystem
import Foundation
import Imaging
import Logging
internal import SystemPackage

/// The photos a worker is reading, kept on disk so that a photo that crashes the process (a C
/// library's `abort()` or fault on its bytes) is quarantined instead of crashing every run after it.
///
/// Before a photo is analysed its record is written to the worker's folder in `.inflight/` (no
/// flush: a dead process's writes survive it); after, the record is removed. A crash's signal is
/// noted in the same folder (`CrashNote`). The next run of any worker turns the records of a
/// process that crashed into one death each for their photos, kept in `.crashes/` until the photo
/// leaves the inbox; the records of a process that ended without a crash signal (`SIGKILL`, a
/// power cut: nothing the photo did) are dropped. A photo with one death is read alone, no other
/// photo beside it, so a second crash names it alone; one with two is quarantined unread.
final class PhotosInFlight: Sendable {
    /// A photo being read, or one that was when the process died of `signal`.
    struct Record: Codable, Sendable {
        var set: String
        var path: String
        /// Its size and time when it was read: a photo replaced since is another photo.
        var identity: FileIdentity?
        var signal: String?
    }

    /// What the deaths so far make of a photo.
    enum Verdict: Equatable {
        case clear
        /// The process died once while reading it (and perhaps another photo beside it).
        case suspect
        /// The process died `deathsToQuarantine` times while reading it: the quarantine's reason.
        case poison(reason: String)
    }

    /// Deaths after which a photo is quarantined: the first may be another photo's, read beside it.
    static let deathsToQuarantine = 2
    static let noteName = "signal"

    private let folder: FilePath
    private let crashes: FilePath
    private let inbox: FilePath
    private let note: FileDescriptor
    /// Each photo's deaths, by `set/path`.
    private let deaths: [String: [Record]]
    private let turns = FairShares(limit: 1)
    private let logger: Logger

    /// Recovers what the workers whose lease has lapsed (and this one's earlier process) left in
    /// `layout.inFlight`, loads the deaths, and makes this worker's folder and crash note.
    init(layout: LibraryLayout, worker session: WorkerSession, inbox: FilePath, logger: Logger) throws {
        self.logger = logger
        let worker = session.id
        for name in try session.goneWorkersFolders({ try Self.folders(in: layout.inFlight) }, own: true) {
            try Self.recover(layout.inFlight.appending(name), into: layout.crashes, logger: logger)
        }
        crashes = layout.crashes
        self.inbox = inbox
        deaths = try Self.deaths(in: crashes, inbox: inbox)
        folder = layout.inFlight.appending(worker)
        try FileOperations.makeDirectories(folder)
        let notePath = folder.appending(Self.noteName)
        note = try FileOperationError.attempt("create", notePath) {
            try FileDescriptor.open(notePath, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                    permissions: .newFile)
        }
        CrashNote.noting(to: note.rawValue)
    }

    /// Stops noting crashes and removes the worker's folder: nothing is in flight any more. The
    /// deaths of photos the run took out of the inbox go too.
    func close() {
        CrashNote.noting(to: nil)
        try? note.close()
        try? FileOperations.removeTree(folder)
        if !deaths.isEmpty { _ = try? Self.deaths(in: crashes, inbox: inbox) }
    }

    func verdict(on file: InboxFile) -> Verdict {
        let died = deaths[Self.key(file.setName, file.relativePath)] ?? []
        if died.count >= Self.deathsToQuarantine {
            let signals = Array(Set(died.compactMap(\.signal))).sorted().joined(separator: ", ")
            let times = died.count == 2 ? "twice" : "\(died.count) times"
            return .poison(reason: "the process died \(times) while reading this photo: \(signals)")
        }
        return died.isEmpty ? .clear : .suspect
    }

    /// `read`'s result for `file`, with the file's record on disk meanwhile; a suspect is read with
    /// no other photo beside it.
    func reading<T>(_ file: InboxFile, _ read: () -> T) -> T {
        let record = folder.appending(UUID().uuidString.lowercased() + ".json")
        let body = { () -> T in
            let written = self.write(Record(set: file.setName, path: file.relativePath,
                                            identity: FileIdentity.of(file.absolutePath)), to: record)
            defer { if written { try? record.remove() } }
            return read()
        }
        return verdict(on: file) == .clear ? turns.withShare(of: 0, body) : turns.alone(body)
    }

    /// Writes `record` unflushed; false, with a warning, when it cannot: the photo is read all the
    /// same, only unguarded.
    private func write(_ record: Record, to path: FilePath) -> Bool {
        do {
            let bytes = Array(try JSONEncoder().encode(record))
            let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                               permissions: .newFile)
            _ = try file.closeAfter { try file.writeAll(bytes) }
            return true
        } catch {
            logger.warning("cannot note the photo being read", metadata: ["file": "\(record.set)/\(record.path)", "error": "\(error)"])
            return false
        }
    }

    private static func key(_ set: String, _ path: String) -> String { "\(set)/\(path)" }

    private static func folders(in parent: FilePath) throws -> [String] {
        guard FileOperations.isDirectory(parent) else { return [] }
        return try FileOperationError.attempt("list", parent) { try Directory.entries(of: parent) }
            .filter(\.isDirectory).map(\.name)
    }

    /// Turns the records a crashed process left in `folder` into deaths in `crashes`, then removes
    /// the folder.
    private static func recover(_ folder: FilePath, into crashes: FilePath, logger: Logger) throws {
        let notePath = folder.appending(noteName)
        let signal = (try? FileDescriptor.contents(of: notePath)).flatMap { CrashNote.signal(in: String(decoding: $0, as: UTF8.self)) }
        if let signal {
            let names = try FileOperationError.attempt("list", folder) { try Directory.entries(of: folder) }
                .map(\.name).filter { $0.hasSuffix(".json") }
            var photos: [String] = []
            for name in names {
                let path = folder.appending(name)
                guard let bytes = try? FileDescriptor.contents(of: path),
                      var record = try? JSONDecoder().decode(Record.self, from: Data(bytes)) else { continue }
                record.signal = signal
                try FileOperations.makeDirectories(crashes)
                // Replacing: a recovery cut short (another kill) is done again from the same records.
                try FileOperations.write(Array(try JSONEncoder().encode(record)), to: crashes.appending(name),
                                         replacing: true)
                photos.append(key(record.set, record.path))
            }
            logger.error("the process died while reading photos", metadata: ["signal": "\(signal)", "photos": "\(photos.joined(separator: ", "))"])
        }
        try FileOperations.removeTree(folder)
    }

    /// The deaths in `crashes`, by photo; those of photos no longer in `inbox` as they were are removed.
    private static func deaths(in crashes: FilePath, inbox: FilePath) throws -> [String: [Record]] {
        guard FileOperations.isDirectory(crashes) else { return [:] }
        var deaths: [String: [Record]] = [:]
        for entry in try FileOperationError.attempt("list", crashes, { try Directory.entries(of: crashes) }) {
            let path = crashes.appending(entry.name)
            guard let bytes = try? FileDescriptor.contents(of: path),
                  let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)) else {
                try FileOperations.remove(path)
                continue
            }
            let now = FileIdentity.of(inbox.appending(record.set).appending(record.path))
            guard let now, record.identity.map(now.hasSameContent(as:)) ?? true else {
                try FileOperations.remove(path)
                continue
            }
            deaths[key(record.set, record.path), default: []].append(record)
        }
        return deaths
    }
}
