import Dispatch
import Synchronization
internal import SystemPackage

/// The outcomes of one set's photos, filled in by the analysis workers in any order.
final class SetOutcomes: Sendable {
    private let files: [InboxFile]
    private let slots: Mutex<[PhotoOutcome?]>
    /// Every analysis of the set is a member; it is done when all have stored their outcome.
    let analysed = DispatchGroup()

    init(files: [InboxFile]) {
        self.files = files
        slots = Mutex(Array(repeating: nil, count: files.count))
    }

    func store(_ outcome: PhotoOutcome, at index: Int) {
        slots.withLock { $0[index] = outcome }
    }

    /// Every outcome, in file order; read once `analysed` is done.
    var all: [PhotoOutcome] {
        slots.withLock { slots in
            slots.enumerated().map { $1 ?? .rejected(files[$0], .internalFailure("the analysis ended without a result")) }
        }
    }
}

extension [PhotoOutcome] {
    /// The thumbnails the analyses staged.
    var stagedThumbnails: [FilePath] {
        compactMap { if case .analysed(let photo) = $0 { photo.thumbnail.path } else { nil } }
    }
}
