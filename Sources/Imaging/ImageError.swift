/// Why an image could not be read, decoded or made. `description` is the reason a person reads.
package enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No accepted loader (JPEG, PNG, WebP, TIFF, HEIC) recognises the bytes.
    case notAnImage
    /// The header announces more pixels than the limit; nothing was decoded.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A side is shorter than the limit: an icon or a tracking pixel, not a photo.
    case tooFewPixels(width: Int, height: Int, limit: Int)
    /// The data is truncated or corrupt, or an operation on its pixels failed.
    case undecodable(String)
    /// An image library failed for a reason that is not the image's (libvips did not start).
    case libraryFailed(String)

    package var description: String {
        switch self {
        case .notAnImage: "not an image in a supported format (JPEG, PNG, WebP, TIFF, HEIC)"
        case .tooManyPixels(let width, let height, let limit):
            "too many pixels: \(width)×\(height) is over maxPixels \(limit)"
        case .tooFewPixels(let width, let height, let limit):
            "too small for a photo: \(width)×\(height), a side under minPixels \(limit)"
        case .undecodable(let why): "truncated or corrupt image: \(why)"
        case .libraryFailed(let why): why
        }
    }
}
