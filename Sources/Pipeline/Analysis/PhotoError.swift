package import FileSystem
package import Imaging

/// Why a file in a set is not catalogued as a photo. Its `reason` is what the quarantine's
/// `.reason` file and the run summary say.
package enum PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case symbolicLink
    case notRegularFile(kind: String)
    case unreadable(String)
    case tooLarge(bytes: Int64, limit: Int64)
    /// Not a sound image of an accepted format within the pixel limit.
    case image(ImageError)
    case changedWhileReading
    /// Listed, then gone before it was read: moved by whoever holds its set now (a worker that
    /// took the set over), or deleted. Nothing to quarantine; the set waits.
    case goneBeforeReading
    /// The process died while reading it, often enough to blame it (`PhotosInFlight`).
    case killedTheProcess(String)
    /// Our own code failed (an unexpected error, an outcome never stored): not the file's fault.
    case internalFailure(String)
    /// Its thumbnail could not be written to the library's staging folder: our storage failed, not the file.
    case notStaged(FileOperationError)

    package var reason: String {
        switch self {
        case .empty: "empty file"
        case .symbolicLink: "symbolic link (never followed)"
        case .notRegularFile(let kind): "not a regular file (\(kind))"
        case .unreadable(let why): "cannot read: \(why)"
        case .tooLarge(let bytes, let limit): "file too large: \(bytes) bytes, the limit is \(limit)"
        case .image(let error): error.description
        case .changedWhileReading: "the file changed while it was read"
        case .goneBeforeReading: "the file went away before it was read"
        case .killedTheProcess(let why): why
        case .internalFailure(let why): "internal error: \(why)"
        case .notStaged(let error): "its thumbnail could not be staged: \(error)"
        }
    }

    /// The reason's kind, a label value of the quarantine's metric (`MetricFamily.quarantinedPhotos`).
    package var kind: String {
        switch self {
        case .empty: "empty"
        case .symbolicLink: "symbolic_link"
        case .notRegularFile: "not_regular_file"
        case .unreadable: "unreadable"
        case .tooLarge: "too_large"
        case .image(.notAnImage): "not_an_image"
        case .image(.tooManyPixels): "too_many_pixels"
        case .image(.tooFewPixels): "too_few_pixels"
        case .image(.undecodable): "undecodable"
        case .image(.libraryFailed): "library_failed"
        case .changedWhileReading: "changed_while_reading"
        case .goneBeforeReading: "gone_before_reading"
        case .killedTheProcess: "killed_the_process"
        case .internalFailure: "internal_failure"
        case .notStaged: "not_staged"
        }
    }

    /// Not the file's fault — it changed while it was read, our own storage or our own code failed —
    /// so it is never quarantined: its whole set stays in the inbox for the next run, counted as failed.
    package var isTransient: Bool {
        switch self {
        case .changedWhileReading, .goneBeforeReading, .notStaged, .internalFailure: true
        default: false
        }
    }

    package var description: String { reason }
}
