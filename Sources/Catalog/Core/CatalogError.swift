import Foundation

/// What went wrong in the catalogue, worded so the user knows which file is at fault and what to do.
package enum CatalogError: Error, CustomStringConvertible, Equatable {
    /// The database file could not be created or opened (path, reason).
    case cannotOpen(path: String, reason: String)
    /// There is no catalogue at the path, and the command only reads one.
    case notFound(path: String)
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String)
    /// The database was migrated by a newer ingest; it lists the migrations this version does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// A set could not be committed; nothing of it was written (database path, set name, the database's message).
    case commitFailed(path: String, setName: String, reason: String)
    /// A photo of the set is catalogued already — by another worker, a moment ago; nothing of the
    /// set was written (database path, set name, the database's message).
    case alreadyCatalogued(path: String, setName: String, reason: String)
    /// Another worker took the set over while this one worked on it (its lease lapsed: the worker
    /// was paused or cut off for longer than the lease); nothing of it was written, and the
    /// holder (nil: no one now) finishes the set.
    case claimLost(path: String, setName: String, holder: String?)
    /// `finishRun(_:)` was given a run that `startRun` did not return.
    case unknownRun(path: String)
    /// Several captures start with the given id prefix (prefix, number of matches).
    case ambiguousId(String, Int)
    /// The CSV export could not be written (output path, reason).
    case exportFailed(path: String, reason: String)
    /// A backup could not be made or did not check out (backup path, reason); no file is left at the path.
    case backupFailed(path: String, reason: String)
    /// A catalogue could not be copied into another, or the copy did not check out (the
    /// destination's path or URL, the reason).
    case copyFailed(path: String, reason: String)
    /// A photo was deleted while its thumbnail was being remade (database path, photo id).
    case unknownPhoto(path: String, photoId: String)
    /// The disk holding the catalogue is full or failing (database path, SQLite's message); nothing
    /// of the write was kept, and no later write will fare better until space is freed.
    case storageFailed(path: String, reason: String)
    /// The catalogue's server cannot be reached, or the connection broke in the middle of a write
    /// (its URL without password, the reason): whether that write was kept is not known.
    case unreachable(path: String, reason: String)

    /// The catalogue's storage is full, failing or out of reach: the work in hand must stop, not
    /// just this write.
    package var isStorageFailure: Bool {
        switch self {
        case .storageFailed, .unreachable: true
        default: false
        }
    }

    /// One sentence naming the file, the problem and the remedy.
    package var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            let remedy = CatalogueLocation.isURL(path) ? "check the URL, that the server runs and that it accepts this user"
                : "check that the folder exists and is writable"
            return "\(path): cannot open the catalogue (\(reason)); \(remedy)."
        case let .notFound(path):
            return "\(path): no catalogue here; run ingest run first, or pass --config or --catalog."
        case let .notADatabase(path):
            return "\(path): not a SQLite database; pass the path of an ingest catalogue or a new file name."
        case let .newerSchema(path, unknown):
            let list = unknown.joined(separator: ", ")
            return "\(path): made by a newer ingest (unknown migrations: \(list)); "
                + "upgrade ingest to use it, this version will not open it."
        case let .commitFailed(path, setName, reason):
            return "\(path): set '\(setName)' was not committed (\(reason)); nothing of it was written, "
                + "fix the cause and run ingest again."
        case let .alreadyCatalogued(path, setName, reason):
            return "\(path): set '\(setName)' was not committed: a photo of it is catalogued already (\(reason)); "
                + "nothing of it was written."
        case let .claimLost(path, setName, holder):
            return "\(path): set '\(setName)' was not committed: its claim lapsed and \(holder.map { "worker \($0)" } ?? "no worker") "
                + "holds it now; that worker ingests it."
        case let .unknownRun(path):
            return "\(path): cannot finish a run that was never started; use the run returned by startRun."
        case let .ambiguousId(prefix, count):
            return "id prefix '\(prefix)' matches \(count) captures; type more characters of the id."
        case let .exportFailed(path, reason):
            return "\(path): cannot write the CSV export (\(reason)); check the folder exists and is writable."
        case let .backupFailed(path, reason):
            return "\(path): no backup made (\(reason))."
        case let .copyFailed(path, reason):
            return "\(path): catalogue not copied (\(reason))."
        case let .unknownPhoto(path, photoId):
            return "\(path): photo \(photoId) is no longer catalogued (deleted meanwhile?); nothing to record."
        case let .storageFailed(path, reason):
            return "\(path): cannot write the catalogue (\(reason)); the disk is full or failing and nothing of "
                + "this write was kept: free space, then run ingest again."
        case let .unreachable(path, reason):
            return "\(path): the catalogue's server cannot be reached (\(reason)); check that it runs and the "
                + "network, then run ingest again: an interrupted commit is finished or undone then."
        }
    }
}
