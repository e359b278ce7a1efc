package import Foundation
import Imaging

/// The pixel size a JPEG declares in its frame header; nil when `bytes` is not a JPEG.
package func jpegFrameSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    JPEGFrame.size(of: bytes)
}

/// The frame size of the JPEG file at `url`.
package func jpegFrameSize(of url: URL) throws -> (width: Int, height: Int)? {
    jpegFrameSize([UInt8](try Data(contentsOf: url)))
}
