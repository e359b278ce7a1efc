/// A JPEG thumbnail, upright, without metadata.
package struct Thumbnail: Sendable, Equatable {
    package var jpeg: [UInt8]
    package var width: Int
    package var height: Int

    /// JPEG quality of every thumbnail, whether made during an ingest or again from an original.
    package static let jpegQuality = 85

    /// A thumbnail `width` pixels wide decoded from an original's `bytes` with libvips' shrink-on-load,
    /// upright per its EXIF orientation.
    package init(original bytes: [UInt8], width: Int) throws(ImageError) {
        try Vips.start()
        self = try bytes.withImageBytes { bytes throws(ImageError) in
            try Self(try VipsImage.thumbnail(of: bytes, width: width))
        }
    }

    /// Encodes `image`.
    init(_ image: VipsImage) throws(ImageError) {
        jpeg = try image.jpeg(quality: Self.jpegQuality)
        width = image.width
        height = image.height
    }
}
