import Catalog
import Foundation

// The JSON that `ingest list --json` and `ingest show --json` print, for scripts: camelCase keys
// that never change meaning once documented in README.md, every key always present (`null` when
// there is no value). Paths are relative to the library.

/// One capture: an element of `list --json`, and with `photos` the object `show --json` prints.
struct CaptureJSON: Encodable {
    var id: String
    var setName: String
    var capturedAt: String
    var timeSource: String
    @NullWhenAbsent var barcode: String?
    @NullWhenAbsent var symbology: String?
    @NullWhenAbsent var gtin13: String?
    var photoCount: Int
    var quality: Double
    var rating: String
    @NullWhenAbsent var agentId: String?
    /// The agent's latest name; `agentNameAtCapture` is the one its `capture.json` gave.
    @NullWhenAbsent var agentName: String?
    @NullWhenAbsent var agentNameAtCapture: String?
    @NullWhenAbsent var requestId: String?
    @NullWhenAbsent var note: String?
    var createdAt: String
    /// Only in `show --json`.
    var photos: [PhotoJSON]?

    init(_ capture: Capture, agents: [String: Agent], photos: [PhotoJSON]? = nil) {
        id = capture.id
        setName = capture.setName
        capturedAt = capture.capturedAt
        timeSource = capture.timeSource.rawValue
        barcode = capture.barcode
        symbology = capture.symbology?.rawValue
        gtin13 = capture.gtin13
        photoCount = capture.photoCount
        quality = capture.quality
        rating = capture.rating.rawValue
        agentId = capture.agentId
        agentName = capture.agentName(latestIn: agents)
        agentNameAtCapture = capture.agentName
        requestId = capture.requestId
        note = capture.note
        createdAt = capture.createdAt
        self.photos = photos
    }
}

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

/// One barcode hit of `show --json`; the box is in the scanned image's stored pixels.
struct BarcodeJSON: Encodable {
    var symbology: String
    var text: String
    @NullWhenAbsent var gtin13: String?
    var quality: Int
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(_ hit: BarcodeHit) {
        symbology = hit.symbology.rawValue
        text = hit.text
        gtin13 = hit.gtin13
        quality = hit.quality
        x = hit.x
        y = hit.y
        width = hit.width
        height = hit.height
    }
}

/// Encodes an absent value as `null` rather than leaving its key out, so scripts always find the key.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// Pretty-printed JSON with sorted keys and a final line end, as `list` and `show` print it.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
