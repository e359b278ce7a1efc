/// Why a correction or an undo was refused; nothing was written. Worded for the person who asked.
package enum EditError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No capture has this id (deleted or merged away meanwhile?).
    case unknownCapture(String)
    /// No photo has this id.
    case unknownPhoto(String)
    /// Several photos' ids start with this prefix.
    case ambiguousPhoto(String)
    /// No edit has this number.
    case unknownEdit(Int64)
    /// Nothing to undo: every correction is undone already, or none was made.
    case nothingToUndo
    /// The edit was undone already, by the edit given.
    case alreadyUndone(edit: Int64, by: Int64)
    /// `ingest purge` removed the files the edit kept, so its captures cannot come back.
    case purged(edit: Int64)
    /// A capture the edit touched changed since (the later edit that changed it, when known): undo
    /// that one first.
    case changedSince(edit: Int64, capture: String, later: Int64?)
    /// A photo of a deleted capture cannot come back: its bytes or its file name are catalogued again.
    case cannotRestore(edit: Int64, photo: String, reason: String)
    /// The plan a correction made does not fit the captures it was given (a fault of the caller).
    case invalidPlan(String)

    package var description: String {
        switch self {
        case .unknownCapture(let id):
            return "no capture \(id) (deleted or merged meanwhile?); reload and try again."
        case .unknownPhoto(let id):
            return "no photo \(id) (its capture deleted meanwhile?); reload and try again."
        case .ambiguousPhoto(let prefix):
            return "photo id prefix '\(prefix)' matches several photos; type more characters of the id."
        case .unknownEdit(let id):
            return "no edit #\(id); see ingest undo --list."
        case .nothingToUndo:
            return "nothing to undo: every correction is undone (undo an undo by its number to make it again)."
        case let .alreadyUndone(edit, by):
            return "edit #\(edit) was undone already by #\(by); undo #\(by) to make it again."
        case .purged(let edit):
            return "edit #\(edit) cannot be undone: ingest purge removed the files of the captures it deleted."
        case let .changedSince(edit, capture, later):
            let cause = later.map { "edit #\($0) changed it since; undo that one first" } ?? "it changed since"
            return "edit #\(edit) cannot be undone: capture \(capture.prefix(8)) is not as the edit left it (\(cause))."
        case let .cannotRestore(edit, photo, reason):
            return "edit #\(edit) cannot be undone: photo \(photo.prefix(8)) \(reason)."
        case .invalidPlan(let reason):
            return "the correction was refused: \(reason)."
        }
    }
}
