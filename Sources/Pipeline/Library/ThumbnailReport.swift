import Foundation
import Logging

/// What a thumbnail regeneration did, in counts: the thumbnails that could not be made went to the
/// caller one by one as they failed.
package struct ThumbnailReport: Sendable {
    /// Thumbnails written and recorded.
    package var made: Int
    /// Thumbnails that could not be made.
    package var failed: Int
    package var seconds: Double
}
