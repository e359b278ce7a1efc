import Glibc

/// A failed system call's error number. The one place that reads `errno` after a call.
struct Errno: Error, Equatable, CustomStringConvertible {
    var code: Int32

    /// The error of the system call that just failed on this thread.
    static var current: Errno { Errno(code: errno) }

    /// The system's text for it: "No such file or directory".
    var description: String { String(cString: strerror(code)) }
}

/// Calls `body` again while it fails with EINTR (a signal arrived): the result of a system call
/// that returns -1 on failure, or throws the call's `Errno`.
@discardableResult
func retryOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno.current
        if error.code != EINTR { throw error }
    }
}
