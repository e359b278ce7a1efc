/// Why a draft call was refused.
package enum DraftError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No draft of that id belongs to the one asking.
    case notFound
    case noSuchPhoto(Int)
    /// The draft holds `uploadMaxFiles` photos.
    case full(Int)
    /// The owner keeps this many drafts already.
    case tooMany(Int)
    /// A draft without photos cannot be saved.
    case empty

    package var description: String {
        switch self {
        case .notFound: "no such draft: it was saved, cancelled or removed after \("draftIdleMinutes") untouched, or it is another session's."
        case .noSuchPhoto(let number): "the draft has no photo \(number)."
        case .full(let limit): "a draft takes at most \(limit) photos (uploadMaxFiles): remove one first."
        case .tooMany(let limit): "you keep \(limit) drafts already: save or cancel one first."
        case .empty: "the draft has no photo yet: take one first."
        }
    }
}
