package import Catalog
import Foundation
import Vocabulary

// The JSON that `ingest list --json` and `ingest show --json` print, for scripts: camelCase keys
// that never change meaning once documented in docs/commands.md, every key always present
// (`null` when there is no value). Paths are relative to the library.

/// One capture: an element of `list --json`, and with `photos` the object `show --json` prints.
package struct CaptureJSON: Encodable, Sendable {
    package var id: String
    package var setName: String
    package var capturedAt: String
    package var timeSource: String
    @NullWhenAbsent package var barcode: String?
    @NullWhenAbsent package var symbology: String?
    @NullWhenAbsent package var gtin13: String?
    /// The 2- or 5-digit add-on beside the barcode (magazines, books); not part of `gtin13`.
    @NullWhenAbsent package var addon: String?
    /// The other codes its photos read (a GTIN-13, else the text), each once: kept as hits, not
    /// keys (a second product on a shelf photo, a QR code or a price code on the package).
    package var otherCodes: [String]
    package var photoCount: Int
    package var quality: Double
    package var rating: String
    @NullWhenAbsent package var agentId: String?
    /// The agent's latest name; `agentNameAtCapture` is the one its `capture.json` gave.
    @NullWhenAbsent package var agentName: String?
    @NullWhenAbsent package var agentNameAtCapture: String?
    @NullWhenAbsent package var requestId: String?
    @NullWhenAbsent package var note: String?
    package var createdAt: String
    /// The product of the capture's barcode; null when the catalogue has none.
    @NullWhenAbsent package var product: ProductJSON?
    /// Only in `show --json`.
    package var photos: [PhotoJSON]?
    /// The most prominent print of its photos, where its product has no name (none from a dump,
    /// none entered): a suggestion.
    @NullWhenAbsent package var nameFromPackage: String?
    /// The nutrition table read on its photos, keys absent for values not read.
    @NullWhenAbsent package var labelNutrition: LabelNutrition?

    /// `hits`: the capture's photos' barcode hits, in their order.
    package init(_ capture: Capture, agents: [String: Agent], product: Product?, hits: [BarcodeHit], photos: [PhotoJSON]? = nil,
                 packageText: PackageText? = nil) {
        id = capture.id
        setName = capture.setName
        capturedAt = capture.capturedAt
        timeSource = capture.timeSource.rawValue
        barcode = capture.barcode
        symbology = capture.symbology?.rawValue
        gtin13 = capture.gtin13
        addon = capture.addon
        otherCodes = capture.otherCodes(among: hits)
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
        nameFromPackage = product?.name == nil ? packageText?.name : nil
        labelNutrition = packageText?.nutrition
    }
}
