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
    /// The product of the capture's barcode; null when the catalogue has none.
    @NullWhenAbsent var product: ProductJSON?
    /// Only in `show --json`.
    var photos: [PhotoJSON]?

    init(_ capture: Capture, agents: [String: Agent], product: Product?, photos: [PhotoJSON]? = nil) {
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
        self.product = product.map(ProductJSON.init)
        self.photos = photos
    }
}

/// Pretty-printed JSON with sorted keys and a final line end, as `list` and `show` print it.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
