import Vocabulary

/// One photo of a capture, with where its files live in the library and what was measured on it.
package struct Photo: Codable, Hashable, Sendable {
    package var id: String
    package var captureId: String
    /// 0-based position within the capture, in capture-time order.
    package var position: Int
    /// The file name as it was in the inbox.
    package var originalName: String
    /// The path as it was in the inbox, relative to the set folder (the name, or `sub/name`).
    package var sourcePath: String
    /// Relative to the library folder.
    package var originalPath: String
    package var thumbPath: String
    package var thumbWidth: Int
    package var thumbHeight: Int
    /// Lower-case hex SHA-256 of the original bytes; unique across the catalogue.
    package var sha256: String
    package var byteSize: Int64
    /// The format its loader decoded.
    package var format: ImageFormat
    /// Upright pixel size (EXIF orientation applied).
    package var width: Int
    package var height: Int
    package var orientation: Int
    package var make: String?
    package var model: String?
    package var takenAt: String
    package var takenUTC: Double
    package var timeSource: TimeSource
    package var sharpness: Double
    package var contrast: Double
    package var brightness: Double
    package var decodeConfidence: Double?
    package var quality: Double
    package var rating: Rating
    /// The original's modification time as it was analysed, in nanoseconds since 1970: with
    /// `byteSize`, what `verify --quick` compares. Nil for photos catalogued before it was recorded.
    package var originalModified: Int64?

    package init(id: String, captureId: String, position: Int, originalName: String, sourcePath: String,
                originalPath: String, thumbPath: String, thumbWidth: Int, thumbHeight: Int, sha256: String,
                byteSize: Int64, format: ImageFormat, width: Int, height: Int, orientation: Int, make: String?,
                model: String?, takenAt: String, takenUTC: Double, timeSource: TimeSource, sharpness: Double,
                contrast: Double, brightness: Double, decodeConfidence: Double?, quality: Double, rating: Rating,
                originalModified: Int64? = nil) {
        self.id = id
        self.captureId = captureId
        self.position = position
        self.originalName = originalName
        self.sourcePath = sourcePath
        self.originalPath = originalPath
        self.thumbPath = thumbPath
        self.thumbWidth = thumbWidth
        self.thumbHeight = thumbHeight
        self.sha256 = sha256
        self.byteSize = byteSize
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
        self.takenAt = takenAt
        self.takenUTC = takenUTC
        self.timeSource = timeSource
        self.sharpness = sharpness
        self.contrast = contrast
        self.brightness = brightness
        self.decodeConfidence = decodeConfidence
        self.quality = quality
        self.rating = rating
        self.originalModified = originalModified
    }
}
