import Vocabulary

/// One product capture: at most one barcode and one or more photos of one set.
///
/// Times are kept twice: `capturedAt` as the user should read it (ISO 8601, with
/// the UTC offset only when the camera recorded one) and `capturedUTC`, seconds
/// since 1970 used for ordering and filters. When the offset is unknown the wall
/// clock is taken as UTC for `capturedUTC`; `timeSource` says so.
package struct Capture: Codable, Hashable, Sendable {
    /// A UUID string; commands accept any unique prefix of it.
    package var id: String
    package var runId: Int64?
    /// The inbox sub-folder the capture came from.
    package var setName: String
    /// The code as read, normalised (UPC-E expanded to UPC-A); nil for a capture without barcode.
    package var barcode: String?
    /// The symbology of `barcode`.
    package var symbology: Symbology?
    /// GTIN-13 of a retail code (EAN-13, UPC-A, UPC-E, EAN-8 zero-padded); nil otherwise.
    package var gtin13: String?
    package var capturedAt: String
    package var capturedUTC: Double
    /// Where the first photo's time came from.
    package var timeSource: TimeSource
    package var photoCount: Int
    /// Mean quality of the capture's photos, 0…1, and its rating.
    package var quality: Double
    package var rating: Rating
    /// When the capture was committed, ISO 8601 UTC.
    package var createdAt: String
    /// The agent the set was photographed for (its `capture.json`); nil without context.
    package var agentId: String?
    /// The agent's display name as the sidecar gave it at capture time; the `agent` table holds the latest.
    package var agentName: String?
    /// The agent's request this capture answers, as given in `capture.json`.
    package var requestId: String?
    /// Free text from `capture.json`.
    package var note: String?
    /// Where the set's `capture.json` was kept, relative to the library; shared by the set's captures.
    package var contextPath: String?
    /// The 2- or 5-digit add-on beside the barcode (a magazine's issue, a book's price), apart from
    /// it: `gtin13` alone is the product.
    package var addon: String?

    package init(id: String, runId: Int64?, setName: String, barcode: String?, symbology: Symbology?, gtin13: String?,
                capturedAt: String, capturedUTC: Double, timeSource: TimeSource, photoCount: Int,
                quality: Double, rating: Rating, createdAt: String, agentId: String? = nil, agentName: String? = nil,
                requestId: String? = nil, note: String? = nil, contextPath: String? = nil, addon: String? = nil) {
        self.id = id
        self.runId = runId
        self.setName = setName
        self.barcode = barcode
        self.symbology = symbology
        self.gtin13 = gtin13
        self.capturedAt = capturedAt
        self.capturedUTC = capturedUTC
        self.timeSource = timeSource
        self.photoCount = photoCount
        self.quality = quality
        self.rating = rating
        self.createdAt = createdAt
        self.agentId = agentId
        self.agentName = agentName
        self.requestId = requestId
        self.note = note
        self.contextPath = contextPath
        self.addon = addon
    }
}
