import ArgumentParser
import Foundation
import Logging
import Pipeline

/// How a command that changes the library takes the library's lock: at once, or waiting with `--wait`.
struct LockOptions: ParsableArguments {
    @Flag(help: "Wait while another ingest run or watch holds the library, instead of exiting with 75.")
    var wait = false

    /// Takes the lock of the configuration's library. When another process holds it, waits (with
    /// `--wait`) or exits 75 (EX_TEMPFAIL) with a message naming the lock file and the holder.
    /// None with a shared (PostgreSQL) catalogue: its workers share the library, each set claimed
    /// in the catalogue (an `flock` over NFS cannot be trusted anyway).
    func lockLibrary(_ config: PipelineConfig, logger: Logger) throws -> LibraryLock? {
        guard !config.catalogLocation.isShared else { return nil }
        do {
            return try LibraryLock.acquire(library: config.library, wait: wait) { holder in
                logger.notice("waiting for the library lock", metadata: [
                    "lock": "\(LibraryLock.path(library: config.library))",
                    "holder": "\(holder.map(String.init) ?? "unknown")",
                ])
            }
        } catch let error as LibraryLockError {
            FileHandle.standardError.write(Data("ingest: \(error)\n".utf8))
            throw ExitCode(75)
        }
    }
}
