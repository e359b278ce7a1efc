package import Catalog
import FileSystem
import Foundation
internal import SystemPackage

/// Whether the service can do its work now: what `ingest status` prints and `/readyz` answers.
/// Each check says what it found, so a failed one names what to fix.
package struct Readiness: Sendable, Encodable {
    package struct Check: Sendable, Encodable, Equatable {
        /// `catalogue`, `library`, `inbox` or `disk`.
        package var name: String
        package var ok: Bool
        /// What was found: the path and the error, or the free space.
        package var detail: String
    }

    package var ready: Bool { checks.allSatisfy(\.ok) }
    package var checks: [Check]
    /// The bytes free on the library's disk, as the disk check measured them; nil when it could not.
    package var freeBytes: UInt64?

    private enum CodingKeys: String, CodingKey { case ready, checks }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ready, forKey: .ready)
        try container.encode(checks, forKey: .checks)
    }

    /// Checks that the catalogue answers, a file can be made in the library, the inbox can be
    /// listed, and the library's disk keeps `minFreeMB` free.
    package init(config: PipelineConfig, catalogue: Catalogue) {
        let disk = Self.disk(config.library, floorMB: config.minFreeMB)
        checks = [Self.catalogue(catalogue), Self.library(config.library), Self.inbox(config.inbox), disk.check]
        freeBytes = disk.free
    }

    private static func catalogue(_ catalogue: Catalogue) -> Check {
        do {
            try catalogue.ping()
            return Check(name: "catalogue", ok: true, detail: "answers")
        } catch {
            return Check(name: "catalogue", ok: false, detail: "does not answer: \(error)")
        }
    }

    /// A file made and removed: `access(2)` says yes to root on a read-only folder, and to anyone
    /// on a disk that is full of inodes.
    private static func library(_ library: FilePath) -> Check {
        let probe = library.appending(".ready-\(UUID().uuidString.prefix(8))")
        do {
            let file = try FileOperationError.attempt("create", probe) {
                try FileDescriptor.open(probe, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                        permissions: .newFile)
            }
            try? file.close()
            try FileOperations.remove(probe)
            return Check(name: "library", ok: true, detail: "\(library) is writable")
        } catch {
            return Check(name: "library", ok: false, detail: "\(error)")
        }
    }

    private static func inbox(_ inbox: FilePath) -> Check {
        do {
            let sets = try FileOperationError.attempt("list", inbox) { try Directory.entries(of: inbox) }
                .filter { $0.isDirectory && !$0.isHidden }.count
            return Check(name: "inbox", ok: true, detail: "\(inbox) is readable, \(sets) set folders")
        } catch {
            return Check(name: "inbox", ok: false, detail: "\(error)")
        }
    }

    private static func disk(_ library: FilePath, floorMB: Int) -> (check: Check, free: UInt64?) {
        let free: UInt64
        do {
            free = try library.availableBytes()
        } catch {
            return (Check(name: "disk", ok: false, detail: "cannot measure the disk of \(library): \(error)"), nil)
        }
        let freeMB = Int(free >> 20)
        let enough = freeMB >= floorMB
        return (Check(name: "disk", ok: enough, detail: "\(freeMB) MB free on the library's disk, "
                      + "\(enough ? "at least" : "below") the floor of \(floorMB) MB (minFreeMB)"), free)
    }

}
