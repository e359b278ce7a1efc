import Catalog
import Foundation
import Imaging
import Logging

/// What a thumbnail regeneration did.
public struct ThumbnailReport: Sendable {
    /// Thumbnails written and recorded.
    public var made: Int
    /// Thumbnails that could not be made (`path` is the thumbnail's, library-relative).
    public var failed: [FileReport]
    public var seconds: Double
}
