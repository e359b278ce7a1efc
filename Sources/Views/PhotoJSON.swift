import Catalog
import Foundation

/// One photo of `show --json`, with every barcode hit found on it.
public struct PhotoJSON: Encodable, Sendable {
    public var id: String
    public var position: Int
    public var originalName: String
    public var originalPath: String
    public var thumbPath: String
    public var thumbWidth: Int
    public var thumbHeight: Int
    public var sha256: String
    public var byteSize: Int64
    public var format: String
    public var width: Int
    public var height: Int
    public var orientation: Int
    @NullWhenAbsent public var make: String?
    @NullWhenAbsent public var model: String?
    public var takenAt: String
    public var timeSource: String
    public var sharpness: Double
    public var contrast: Double
    public var brightness: Double
    @NullWhenAbsent public var decodeConfidence: Double?
    public var quality: Double
    public var rating: String
    public var barcodes: [BarcodeJSON]

    public init(_ photo: Photo, hits: [BarcodeHit]) {
        id = photo.id
        position = photo.position
        originalName = photo.originalName
        originalPath = photo.originalPath
        thumbPath = photo.thumbPath
        thumbWidth = photo.thumbWidth
        thumbHeight = photo.thumbHeight
        sha256 = photo.sha256
        byteSize = photo.byteSize
        format = photo.format.rawValue
        width = photo.width
        height = photo.height
        orientation = photo.orientation
        make = photo.make
        model = photo.model
        takenAt = photo.takenAt
        timeSource = photo.timeSource.rawValue
        sharpness = photo.sharpness
        contrast = photo.contrast
        brightness = photo.brightness
        decodeConfidence = photo.decodeConfidence
        quality = photo.quality
        rating = photo.rating.rawValue
        barcodes = hits.map(BarcodeJSON.init)
    }
}
