import Catalog
import Foundation
import Imaging
import Logging

/// What a thumbnail regeneration did, in counts: the thumbnails that could not be made went to the
/// caller one by one as they failed.
public struct ThumbnailReport: Sendable {
    /// Thumbnails written and recorded.
    public var made: Int
    /// Thumbnails that could not be made.
    public var failed: Int
    public var seconds: Double
}
