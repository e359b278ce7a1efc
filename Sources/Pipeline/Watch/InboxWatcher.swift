import FileSystem
import Foundation
package import Logging
package import SystemPackage

/// Changes below the inbox, from Linux inotify on the inbox and every folder in it.
///
/// Tells which set changed, which set's ready marker appeared, which set folder went away, and when
/// the kernel dropped events (the caller then sweeps the inbox). Folders created or moved in are
/// watched as they appear. One thread calls `waitForChanges(timeout:)`; `wake()` may come from any.
/// Every inotify and poll call of the package is in this file.
// @unchecked: one thread owns the watch table and reads events; `wake()`, from any thread, only
// writes a byte to a pipe.
package final class InboxWatcher: @unchecked Sendable {
    /// One thing that happened below the inbox.
    package enum Change: Equatable, Sendable {
        /// A file or folder of the set was created, written, moved or deleted.
        case changed(set: String)
        /// The set's ready marker was created, written or moved in.
        case marked(set: String)
        /// The set folder was deleted or moved out of the inbox.
        case removed(set: String)
        /// The kernel's event queue overflowed: changes were lost, sweep the inbox.
        case overflow
    }

    package let inbox: FilePath
    /// The file name that marks a set as complete (`.ready`).
    package let readyMarker: String
    private let logger: Logger
    private let events: FileDescriptor
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    /// Folder of each watch, relative to the inbox ("" is the inbox itself), and the reverse.
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Starts watching `inbox` and every folder below it. Throws `InboxWatchError` when the inbox
    /// cannot be watched (missing, not a folder, inotify limits reached).
    package init(inbox: FilePath, readyMarker: String, logger: Logger) throws {
        self.inbox = inbox
        self.readyMarker = readyMarker
        self.logger = logger
        let events = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard events >= 0 else {
            throw InboxWatchError(path: inbox, message: "cannot start watching: \(Self.reason(Errno(rawValue: errno)))")
        }
        let wakeUps: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            wakeUps = try FileDescriptor.pipe(options: [.closeOnExec, .nonBlocking])
        } catch {
            try? FileDescriptor(rawValue: events).close()
            throw InboxWatchError(path: inbox, message: "cannot start watching: \(Self.reason(error))")
        }
        self.events = FileDescriptor(rawValue: events)
        wakeRead = wakeUps.readEnd
        wakeWrite = wakeUps.writeEnd
        let watch = inbox.withPlatformString { inotify_add_watch(events, $0, Self.mask) }
        guard watch >= 0 else {
            throw InboxWatchError(path: inbox, message: "cannot watch the inbox: \(Self.reason(Errno(rawValue: errno)))")
        }
        folders[watch] = ""
        watches[""] = watch
        watchFolders()
    }

    deinit {
        [events, wakeRead, wakeWrite].forEach { try? $0.close() }
    }

    /// How many folders are watched, the inbox included.
    package var watchedFolders: Int { folders.count }

    /// Watches every folder below the inbox that is not watched yet and drops watches of folders
    /// that are gone; for start-up and after an overflow, when creations may have gone unseen.
    package func watchFolders() {
        var seen = Set<String>()
        watchTree("", seen: &seen)
        for (folder, watch) in watches where !seen.contains(folder) && folders[watch] == folder {
            inotify_rm_watch(events.rawValue, watch)
            forgetWatch(watch)
        }
    }

    /// Waits up to `timeout` seconds (infinity: no limit) for changes and returns them in order;
    /// empty when the time ran out or `wake()` was called. Throws when the inbox itself went away.
    package func waitForChanges(timeout: Double) throws -> [Change] {
        var polls = [pollfd(fd: events.rawValue, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: wakeRead.rawValue, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.isFinite ? Int32(min(max(0, (timeout * 1000).rounded(.up)), 86_400_000)) : -1
        guard poll(&polls, 2, milliseconds) >= 0 || errno == EINTR else {
            throw InboxWatchError(path: inbox, message: "cannot wait for changes: \(Self.reason(Errno(rawValue: errno)))")
        }
        if polls[1].revents != 0 {
            _ = try? wakeRead.readAvailable(into: &buffer)
        }
        return polls[0].revents != 0 ? try readChanges() : []
    }

    /// Makes a waiting (or the next) `waitForChanges(timeout:)` return at once. Thread-safe.
    package func wake() {
        // A full pipe already holds a wake-up: nothing is lost when this write fails.
        _ = try? wakeWrite.writeAll([1])
    }

    /// Everything the kernel has queued, translated.
    private func readChanges() throws -> [Change] {
        var changes: [Change] = []
        while true {
            let count = (try? events.readAvailable(into: &buffer)) ?? 0
            guard count > 0 else { break }
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            let raw = buffer.withUnsafeBytes { bytes in
                var parsed: [(watch: Int32, mask: UInt32, name: [UInt8])] = []
                var offset = 0
                while offset + 16 <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    parsed.append((bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                                   bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self), Array(name)))
                    offset += 16 + length
                }
                return parsed
            }
            for event in raw { changes += try translate(watch: event.watch, mask: event.mask, name: event.name) }
        }
        return changes
    }

    private func translate(watch: Int32, mask: UInt32, name rawName: [UInt8]) throws -> [Change] {
        func has(_ flags: Int32) -> Bool { mask & UInt32(flags) != 0 }
        if has(IN_Q_OVERFLOW) { return [.overflow] }
        guard let folder = folders[watch] else { return [] }
        if has(IN_IGNORED) {
            forgetWatch(watch)
            return []
        }
        if has(IN_DELETE_SELF | IN_MOVE_SELF) {
            guard !folder.isEmpty else {
                throw InboxWatchError(path: inbox, message: "the inbox was deleted or moved away")
            }
            return []  // the parent folder's watch reports it
        }
        let name = String(validating: rawName, as: UTF8.self)
        let isFolder = has(IN_ISDIR)
        if folder.isEmpty {
            // Directly in the inbox only non-hidden folders are sets; loose files belong to none.
            guard let name, isFolder, !name.hasPrefix(".") else { return [] }
            if has(IN_DELETE | IN_MOVED_FROM) {
                unwatch(name)
                return [.removed(set: name)]
            }
            if has(IN_CREATE | IN_MOVED_TO) { addWatches(name) }
            return [.changed(set: name)]
        }
        let set = String(folder.prefix { $0 != "/" })
        if let name, isFolder {
            let path = folder + "/" + name
            if has(IN_CREATE | IN_MOVED_TO) { addWatches(path) }
            if has(IN_MOVED_FROM) { unwatch(path) }
        } else if folder == set, name == readyMarker, has(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO) {
            return [.marked(set: set)]
        }
        return [.changed(set: set)]
    }

    /// Watches `folder` (relative to the inbox) and every folder below it.
    private func addWatches(_ folder: String) {
        var seen = Set<String>()
        watchTree(folder, seen: &seen)
    }

    private func watchTree(_ folder: String, seen: inout Set<String>) {
        if !folder.isEmpty { guard addWatch(folder) else { return } }
        seen.insert(folder)
        let root = inbox.appending(folder)
        let depth = folder.isEmpty ? 0 : folder.split(separator: "/").count
        try? Directory.walk(root) { entry, relativePath, level in
            let relative = relativePath.string
            guard entry.isDirectory, !(folder.isEmpty && level == 0 && entry.isHidden),
                  depth + level + 1 <= PhotoSet.maximumDepth else { return false }
            let path = folder.isEmpty ? relative : folder + "/" + relative
            guard addWatch(path) else { return false }
            seen.insert(path)
            return true
        }
    }

    /// Watches `folder` (relative to the inbox); false when it cannot be watched.
    private func addWatch(_ folder: String) -> Bool {
        let watch = inbox.appending(folder).withPlatformString { inotify_add_watch(events.rawValue, $0, Self.mask) }
        guard watch >= 0 else {
            let error = Errno(rawValue: errno)
            if error != .noSuchFileOrDirectory && error != .notDirectory {
                logger.warning("cannot watch a folder; the periodic sweep still finds its set",
                               metadata: ["folder": "\(folder)", "error": "\(Self.reason(error))"])
            }
            return false
        }
        // The same folder under a new name (a rename the events did not show) keeps its watch.
        if let old = folders[watch], old != folder { watches[old] = nil }
        folders[watch] = folder
        watches[folder] = watch
        return true
    }

    /// Stops watching `folder` and everything below it (it moved away; its watches would report
    /// changes under the old name).
    private func unwatch(_ folder: String) {
        for (path, watch) in watches where path == folder || path.hasPrefix(folder + "/") {
            inotify_rm_watch(events.rawValue, watch)
            forgetWatch(watch)
        }
    }

    private func forgetWatch(_ watch: Int32) {
        guard let folder = folders.removeValue(forKey: watch) else { return }
        if watches[folder] == watch { watches[folder] = nil }
    }

    private static func reason(_ error: Errno) -> String {
        switch error {
        case .noSpace: "the inotify watch limit is reached (raise fs.inotify.max_user_watches)"
        case .tooManyOpenFiles: "the inotify instance limit is reached (raise fs.inotify.max_user_instances)"
        default: error.description
        }
    }
}
