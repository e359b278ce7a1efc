package import SystemPackage

/// A failed file-system call: which call, on which path, and the system's reason.
package struct FileOperationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done, as the message's verb phrase: "write", "flush the folder".
    package var operation: String
    package var path: FilePath
    /// The call's `errno`.
    package var code: Int32

    package init(operation: String, path: FilePath, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The failure of `operation` on `path` with `error`: its `Errno`, or `EIO` for an error that is
    /// not a system call's.
    package init(operation: String, path: FilePath, _ error: any Error) {
        self.init(operation: operation, path: path, code: (error as? Errno)?.rawValue ?? Errno.ioError.rawValue)
    }

    /// The system's text for `code`: "No space left on device".
    package var reason: String { Errno(rawValue: code).description }

    package var description: String {
        let text = "cannot \(operation) \(path.string): \(reason)"
        return isOutOfSpace ? text + " (the disk or the file-size limit is full: free space, then run ingest again)" : text
    }

    /// The message for a caller whose own message names `subject` already: "cannot write: No space
    /// left on device", with the path only when it is another.
    package func description(about subject: FilePath) -> String {
        "cannot \(operation)\(path == subject ? "" : " " + path.string): \(reason)"
    }

    /// The disk (or the file-size limit) is full: no later write of this run will fare better.
    package var isOutOfSpace: Bool { [Errno.noSpace, .diskQuotaExceeded, .fileTooLarge].contains(Errno(rawValue: code)) }

    /// `body`'s result; a system error it throws becomes a `FileOperationError` naming `operation`
    /// and `path` (one it throws already passes as it is).
    @discardableResult
    package static func attempt<T>(_ operation: String, _ path: FilePath, _ body: () throws -> T) throws(FileOperationError) -> T {
        do {
            return try body()
        } catch let error as FileOperationError {
            throw error
        } catch {
            throw FileOperationError(operation: operation, path: path, error)
        }
    }
}
