import Catalog
import Foundation

/// One photo of `show --json`, with every barcode hit found on it.
struct PhotoJSON: Encodable {
    var id: String
    var position: Int
    var originalName: String
    var originalPath: String
    var thumbPath: String
    var thumbWidth: Int
    var thumbHeight: Int
    var sha256: String
    var byteSize: Int64
    var format: String
    var width: Int
    var height: Int
    var orientation: Int
    @NullWhenAbsent var make: String?
    @NullWhenAbsent var model: String?
    var takenAt: String
    var timeSource: String
    var sharpness: Double
    var contrast: Double
    var brightness: Double
    @NullWhenAbsent var decodeConfidence: Double?
    var quality: Double
    var rating: String
    var barcodes: [BarcodeJSON]

    init(_ photo: Photo, hits: [BarcodeHit]) {
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
