import Glibc
internal import SystemPackage

/// Calls `body`, a system call swift-system does not offer, again while it fails with `EINTR` (a
/// signal arrived), as swift-system's own calls do with `retryOnInterrupt`. Returns the call's
/// result, or throws its `Errno`. Only this target calls the C library for files and folders.
@discardableResult
func systemCall<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno(rawValue: errno)
        if error != .interrupted { throw error }
    }
}

extension FilePath {
    /// `systemCall(_:)` of `body` with this path as a C string.
    @discardableResult
    func systemCall<Result: BinaryInteger>(_ body: (UnsafePointer<CChar>) -> Result) throws(Errno) -> Result {
        let result = withPlatformString { path in
            Swift.Result { () throws(Errno) in try FileSystem.systemCall { body(path) } }
        }
        return try result.get()
    }

    /// `systemCall(_:)` of `body` with this path and `other` as C strings.
    @discardableResult
    func systemCall<Result: BinaryInteger>(
        with other: FilePath, _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Result
    ) throws(Errno) -> Result {
        let result = withPlatformString { first in
            other.withPlatformString { second in
                Swift.Result { () throws(Errno) in try FileSystem.systemCall { body(first, second) } }
            }
        }
        return try result.get()
    }
}
