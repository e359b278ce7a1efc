import FileSystem
import Foundation
package import SystemPackage

/// One set being uploaded, in its staging folder: photos written as their bytes arrive, then either
/// `commit()`ed into the inbox whole or `discard()`ed. Used by one request at a time (its calls
/// come one after another, possibly from different threads).
// @unchecked: one request owns it and calls it one call after another (never two at once), so its
// mutable state needs no lock; Sendable only so that those calls may come from different threads.
package final class StagedUpload: @unchecked Sendable {
    /// The set's name in the inbox, made by the server.
    package let name: String
    package let folder: FilePath
    let staging: UploadStaging
    /// The photos' file names, in the order they came.
    package private(set) var photos: [String] = []
    /// Bytes of photos written so far.
    package private(set) var bytesWritten: Int64 = 0
    private var taken: Set<String> = []
    private var open: (descriptor: FileDescriptor, path: FilePath)?
    /// Bytes of the open photo not yet written: a multipart parser hands a body over in pieces of a
    /// few hundred bytes (it stops at every CR), and a write per piece would cost a system call each.
    private var pending: [UInt8] = []
    static let writeSize = 1 << 20

    /// `taken`: names the photos must not get (those already beside the folder's, for a draft).
    init(name: String, folder: FilePath, staging: UploadStaging, taken: Set<String> = []) {
        self.name = name
        self.folder = folder
        self.staging = staging
        self.taken = taken
    }

    /// Where the committed set lives in the inbox.
    package var inboxFolder: FilePath { staging.inbox.appending(name) }

    /// Starts the next photo, named after `clientName` (cleaned, see `UploadFileName`); returns its name.
    package func startPhoto(clientName: String) throws -> String {
        try finishPhoto()
        let file = UploadFileName.clean(clientName, taken: &taken)
        let path = folder.appending(file)
        let descriptor = try FileOperationError.attempt("create", path) {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                    permissions: .newFile)
        }
        open = (descriptor, path)
        photos.append(file)
        return file
    }

    /// Appends `bytes` to the photo being written.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard open != nil else { return }
        pending.append(contentsOf: bytes)
        bytesWritten += Int64(bytes.count)
        if pending.count >= Self.writeSize { try writePending() }
    }

    /// Writes, flushes and closes the photo being written, if any.
    package func finishPhoto() throws {
        guard let open else { return }
        defer { self.open = nil }
        try FileOperationError.attempt("write", open.path) {
            try open.descriptor.closeAfter {
                try writePending()
                try FileOperationError.attempt("flush", open.path) { try open.descriptor.sync() }
            }
        }
    }

    private func writePending() throws(FileOperationError) {
        guard let open, !pending.isEmpty else { return }
        try FileOperationError.attempt("write", open.path) { try open.descriptor.writeAll(pending) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the set's `capture.json` (who it was captured for).
    package func write(_ context: CaptureContext) throws {
        var object: [String: String] = [:]
        object["agentId"] = context.agentId
        object["agentName"] = context.agentName
        object["requestId"] = context.requestId
        object["note"] = context.note
        object["addTo"] = context.addTo
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try FileOperations.write(Array(data), to: folder.appending(CaptureContext.fileName))
    }

    /// Marks the set ready and moves it into the inbox with one rename, each name flushed to disk
    /// first: the inbox gets the whole set, or nothing of it.
    package func commit() throws {
        try finishPhoto()
        try FileOperations.write([], to: folder.appending(staging.readyMarker))
        try DurableFile.syncFolder(folder)
        let destination = inboxFolder
        try FileOperationError.attempt("move \(folder) to", destination) {
            try folder.rename(to: destination)
        }
        try DurableFile.syncFolder(staging.inbox)
        try DurableFile.syncFolder(staging.ownFolder)
    }

    /// Removes what was staged. Safe to call after `commit()` (there is nothing left to remove then).
    package func discard() {
        if let open {
            try? open.descriptor.close()
            self.open = nil
        }
        pending = []
        try? FileOperations.removeTree(folder)
    }
}
