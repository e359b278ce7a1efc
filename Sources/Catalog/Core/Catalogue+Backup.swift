import Foundation

extension Catalogue {
    /// Writes a consistent copy of the catalogue to `destination`, a SQLite file which must not
    /// exist, while other processes may go on writing: SQLite's `VACUUM INTO` from one read
    /// snapshot (a PostgreSQL catalogue: `copy(to:)` from one snapshot) into a temporary file beside
    /// it, which is then opened and checked (integrity, migrations), flushed and renamed into place.
    /// Returns the copy's counts. Throws `CatalogError.backupFailed`.
    public func backup(to destination: String) throws -> (captures: Int, photos: Int, hits: Int) {
        if let problem = NewFileDestination.problem(destination) {
            throw CatalogError.backupFailed(path: destination, reason: problem)
        }
        let folder = (destination as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((destination as NSString).lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            if let sqlite = store as? SQLiteStore {
                try sqlite.vacuum(into: temporary)
            } else {
                let copy = try Catalogue(path: temporary, logger: logger)
                defer { try? copy.close() }
                _ = try self.copy(to: copy)
            }
            let counts = try check(copy: temporary)
            try Self.flushAndPlace(temporary, at: destination)
            return counts
        } catch let error as CatalogError {
            if case .copyFailed(_, let reason) = error { throw CatalogError.backupFailed(path: destination, reason: reason) }
            throw error
        } catch let error as SQLError {
            throw CatalogError.backupFailed(path: destination, reason: error.message)
        }
    }

    /// Opens the copy at `path` as the catalogue it must be, and checks every page of it.
    private func check(copy path: String) throws -> (captures: Int, photos: Int, hits: Int) {
        let copy = try Catalogue(path: path, create: false, logger: logger)
        defer { try? copy.close() }
        let problems = try copy.read { db in try db.column(String.self, "PRAGMA integrity_check") }
        guard problems == ["ok"] else {
            throw CatalogError.backupFailed(path: path, reason: "the copy is damaged: \(problems.prefix(3).joined(separator: "; "))")
        }
        return try copy.counts()
    }

    /// Flushes the file at `path`, renames it to `destination` and flushes the folder's new name.
    private static func flushAndPlace(_ path: String, at destination: String) throws {
        try flush(path, to: destination)
        guard rename(path, destination) == 0 else {
            throw CatalogError.backupFailed(path: destination, reason: "cannot rename the copy: \(String(cString: strerror(errno)))")
        }
        let folder = (destination as NSString).deletingLastPathComponent
        try flush(folder.isEmpty ? "." : folder, to: destination)
    }

    /// Flushes the file or folder at `path` to the disk.
    private static func flush(_ path: String, to destination: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { Glibc.close(descriptor) } }
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw CatalogError.backupFailed(path: destination, reason: "cannot flush \(path): \(String(cString: strerror(errno)))")
        }
    }
}
