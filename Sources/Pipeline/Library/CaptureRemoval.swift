import Catalog
import Foundation
import Logging

/// What `CaptureRemover.delete(idPrefix:)` removed.
public struct CaptureRemoval: Sendable {
    public var capture: Capture
    public var photos: [Photo]
    /// Library-relative paths of the files removed.
    public var removedFiles: [String]
    /// Files that could not be removed; no row references them any more.
    public var leftFiles: [FileReport]
}
