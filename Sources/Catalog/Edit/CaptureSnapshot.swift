/// A capture as a correction found or left it: its row, its photos by position, their barcode
/// hits and their text. Edits store these (as JSON) for the captures they touch, before and after,
/// which is all an undo needs, a deleted capture's photos, hits and words included.
package struct CaptureSnapshot: Codable, Hashable, Sendable {
    package var capture: Capture
    /// By position: `photos[i].position == i`.
    package var photos: [Photo]
    /// The hits of `photos`, in the order they were stored.
    package var hits: [BarcodeHit]
    /// The words read on `photos` (those read or given up), as the catalogue had them; an undo of a
    /// delete gives them back, so the photos need not be read again. Empty in the edits of
    /// catalogues older than text (`v11-text`).
    package var texts: [PhotoText]

    package init(capture: Capture, photos: [Photo], hits: [BarcodeHit], texts: [PhotoText] = []) {
        self.capture = capture
        self.photos = photos
        self.hits = hits
        self.texts = texts
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        capture = try container.decode(Capture.self, forKey: .capture)
        photos = try container.decode([Photo].self, forKey: .photos)
        hits = try container.decode([BarcodeHit].self, forKey: .hits)
        texts = try container.decodeIfPresent([PhotoText].self, forKey: .texts) ?? []
    }

    /// True when `other` is the same capture row holding the same photos in the same order: what an
    /// undo requires of the captures it reverts. Photo rows are compared by id only, since a
    /// thumbnail remade meanwhile (`ingest thumbnails`) changes a row but not the capture.
    package func hasSameLayout(as other: CaptureSnapshot) -> Bool {
        capture == other.capture && photos.map(\.id) == other.photos.map(\.id)
    }
}
