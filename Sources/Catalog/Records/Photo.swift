import Vocabulary

/// One photo of a capture, with where its files live in the library and what was measured on it.
public struct Photo: Codable, Hashable, Sendable {
    public var id: String
    public var captureId: String
    /// 0-based position within the capture, in capture-time order.
    public var position: Int
    /// The file name as it was in the inbox.
    public var originalName: String
    /// The path as it was in the inbox, relative to the set folder (the name, or `sub/name`).
    public var sourcePath: String
    /// Relative to the library folder.
    public var originalPath: String
    public var thumbPath: String
    public var thumbWidth: Int
    public var thumbHeight: Int
    /// Lower-case hex SHA-256 of the original bytes; unique across the catalogue.
    public var sha256: String
    public var byteSize: Int64
    /// The format its loader decoded.
    public var format: ImageFormat
    /// Upright pixel size (EXIF orientation applied).
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var make: String?
    public var model: String?
    public var takenAt: String
    public var takenUTC: Double
    public var timeSource: TimeSource
    public var sharpness: Double
    public var contrast: Double
    public var brightness: Double
    public var decodeConfidence: Double?
    public var quality: Double
    public var rating: Rating
    /// The original's modification time as it was analysed, in nanoseconds since 1970: with
    /// `byteSize`, what `verify --quick` compares. Nil for photos catalogued before it was recorded.
    public var originalModified: Int64?

    public init(id: String, captureId: String, position: Int, originalName: String, sourcePath: String,
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
