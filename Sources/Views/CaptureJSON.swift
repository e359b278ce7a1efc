import Catalog
import Foundation

// The JSON that `ingest list --json` and `ingest show --json` print, for scripts: camelCase keys
// that never change meaning once documented in docs/commands.md, every key always present
// (`null` when there is no value). Paths are relative to the library.

/// One capture: an element of `list --json`, and with `photos` the object `show --json` prints.
public struct CaptureJSON: Encodable, Sendable {
    public var id: String
    public var setName: String
    public var capturedAt: String
    public var timeSource: String
    @NullWhenAbsent public var barcode: String?
    @NullWhenAbsent public var symbology: String?
    @NullWhenAbsent public var gtin13: String?
    /// The 2- or 5-digit add-on beside the barcode (magazines, books); not part of `gtin13`.
    @NullWhenAbsent public var addon: String?
    public var photoCount: Int
    public var quality: Double
    public var rating: String
    @NullWhenAbsent public var agentId: String?
    /// The agent's latest name; `agentNameAtCapture` is the one its `capture.json` gave.
    @NullWhenAbsent public var agentName: String?
    @NullWhenAbsent public var agentNameAtCapture: String?
    @NullWhenAbsent public var requestId: String?
    @NullWhenAbsent public var note: String?
    public var createdAt: String
    /// The product of the capture's barcode; null when the catalogue has none.
    @NullWhenAbsent public var product: ProductJSON?
    /// Only in `show --json`.
    public var photos: [PhotoJSON]?

    public init(_ capture: Capture, agents: [String: Agent], product: Product?, photos: [PhotoJSON]? = nil) {
        id = capture.id
        setName = capture.setName
        capturedAt = capture.capturedAt
        timeSource = capture.timeSource.rawValue
        barcode = capture.barcode
        symbology = capture.symbology?.rawValue
        gtin13 = capture.gtin13
        addon = capture.addon
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
