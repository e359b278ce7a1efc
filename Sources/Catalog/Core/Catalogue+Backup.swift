import FileSystem
package import SystemPackage

extension Catalogue {
    /// Writes a consistent copy of the catalogue to `destination`, a SQLite file which must not
    /// exist, while other processes may go on writing: SQLite's `VACUUM INTO` from one read
    /// snapshot (a PostgreSQL catalogue: `copy(to:)` from one snapshot) into a temporary file beside
    /// it, which is then opened and checked (integrity, migrations), flushed and renamed into place.
    /// Returns the copy's counts. Throws `CatalogError.backupFailed`.
    package func backup(to destination: FilePath) throws -> (captures: Int, photos: Int, hits: Int) {
        if let problem = NewFileDestination.problem(destination) {
            throw CatalogError.backupFailed(path: destination.string, reason: problem)
        }
        let temporary = DurableFile.temporaryPath(for: destination)
        defer { for suffix in ["", "-wal", "-shm"] { try? FilePath(temporary.string + suffix).remove() } }
        do {
            if let sqlite = store as? SQLiteStore {
                try sqlite.vacuum(into: temporary.string)
            } else {
                let copy = try Catalogue(path: temporary.string, logger: logger)
                defer { try? copy.close() }
                _ = try self.copy(to: copy)
            }
            let counts = try check(copy: temporary)
            try Self.flushAndPlace(temporary, at: destination)
            return counts
        } catch let error as CatalogError {
            if case .copyFailed(_, let reason) = error { throw CatalogError.backupFailed(path: destination.string, reason: reason) }
            throw error
        } catch let error as SQLError {
            throw CatalogError.backupFailed(path: destination.string, reason: error.message)
        } catch let error as FileOperationError {
            throw CatalogError.backupFailed(path: destination.string, reason: error.description(about: destination))
        }
    }

    /// Opens the copy at `path` as the catalogue it must be, and checks every page of it.
    private func check(copy path: FilePath) throws -> (captures: Int, photos: Int, hits: Int) {
        let copy = try Catalogue(path: path.string, create: false, logger: logger)
        defer { try? copy.close() }
        let problems = try copy.read { db in try db.column(String.self, "PRAGMA integrity_check") }
        guard problems == ["ok"] else {
            throw CatalogError.backupFailed(path: path.string, reason: "the copy is damaged: \(problems.prefix(3).joined(separator: "; "))")
        }
        return try copy.counts()
    }

    /// Flushes the file at `path`, renames it to `destination` and flushes the folder's new name.
    /// Throws `FileOperationError`.
    private static func flushAndPlace(_ path: FilePath, at destination: FilePath) throws(FileOperationError) {
        try DurableFile.sync(path)
        try FileOperationError.attempt("rename the copy", destination) { try path.rename(to: destination) }
        try DurableFile.syncFolder(destination.removingLastComponent())
    }
}
