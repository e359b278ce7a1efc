package import SystemPackage
import Foundation

/// Another process holds the library's lock: the lock file and, when known, its holder's process id.
package struct LibraryLockError: Error, CustomStringConvertible, Sendable {
    package var path: FilePath
    package var holder: Int32?

    package var description: String {
        let who = holder.map { "process \($0)" } ?? "another process"
        return "the library is in use by \(who) (lock file \(path)): another ingest run or watch is working on it; "
            + "try again when it has finished, or pass --wait"
    }
}
