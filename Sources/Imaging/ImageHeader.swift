package import Vocabulary
/// What an image's header says, read without decoding its pixels.
package struct ImageHeader: Sendable, Equatable {
    package var format: ImageFormat
    /// Stored pixel size, before the EXIF orientation is applied.
    package var width: Int
    package var height: Int
    /// The EXIF orientation (1…8), 1 when there is none.
    package var orientation: Int
    /// The EXIF fields, when the image carries a usable EXIF block.
    package var exif: ExifInfo?

    /// Reads the header of `bytes`; throws `ImageError.notAnImage` when no accepted loader
    /// recognises them, `.undecodable` when the header is damaged.
    package init(reading bytes: [UInt8]) throws(ImageError) {
        try Vips.start()
        self = try bytes.withImageBytes { bytes throws(ImageError) in
            guard let format = Vips.format(of: bytes) else { throw .notAnImage }
            return Self(try VipsImage.open(bytes, format: format, shrink: 1), format: format)
        }
    }

    init(_ image: VipsImage, format: ImageFormat) {
        self.format = format
        width = image.width
        height = image.height
        orientation = image.orientation
        exif = image.exifBlob.flatMap(ExifInfo.init(block:))
    }

    /// The width and height once turned upright per the orientation.
    package var uprightSize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }
}
