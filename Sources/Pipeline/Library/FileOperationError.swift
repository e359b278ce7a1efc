import Foundation

/// A failed file-system call: which call, on which path, and the system's reason.
public struct FileOperationError: Error, CustomStringConvertible, Sendable, Equatable {
    public var operation: String
    public var path: String
    public var code: Int32

    public var description: String {
        let text = "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        return isOutOfSpace ? text + " (the disk or the file-size limit is full: free space, then run ingest again)" : text
    }

    /// The disk (or the file-size limit) is full: no later write of this run will fare better.
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }
}
