package import Catalog
import Foundation
import Vocabulary

/// One photo of `show --json`, with every barcode hit found on it.
package struct PhotoJSON: Encodable, Sendable {
    package var id: String
    package var position: Int
    package var originalName: String
    package var originalPath: String
    package var thumbPath: String
    package var thumbWidth: Int
    package var thumbHeight: Int
    package var sha256: String
    package var byteSize: Int64
    package var format: String
    package var width: Int
    package var height: Int
    package var orientation: Int
    @NullWhenAbsent package var make: String?
    @NullWhenAbsent package var model: String?
    package var takenAt: String
    package var timeSource: String
    package var sharpness: Double
    package var contrast: Double
    package var brightness: Double
    @NullWhenAbsent package var decodeConfidence: Double?
    package var quality: Double
    package var rating: String
    package var barcodes: [BarcodeJSON]
    /// The words read on it in reading order, a line break between lines; null until it is read
    /// (or when it was given up: `textProblem` says why).
    @NullWhenAbsent package var text: String?
    @NullWhenAbsent package var textProblem: String?

    package init(_ photo: Photo, hits: [BarcodeHit], text: PhotoText? = nil) {
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
        self.text = text?.state == .read ? text?.text : nil
        textProblem = text?.state == .givenUp ? text?.reason : nil
    }
}
