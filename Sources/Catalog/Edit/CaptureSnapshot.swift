/// A capture as a correction found or left it: its row, its photos by position, and their barcode
/// hits. Edits store these (as JSON) for the captures they touch, before and after, which is all an
/// undo needs, a deleted capture's photos and hits included.
package struct CaptureSnapshot: Codable, Hashable, Sendable {
    package var capture: Capture
    /// By position: `photos[i].position == i`.
    package var photos: [Photo]
    /// The hits of `photos`, in the order they were stored.
    package var hits: [BarcodeHit]

    package init(capture: Capture, photos: [Photo], hits: [BarcodeHit]) {
        self.capture = capture
        self.photos = photos
        self.hits = hits
    }

    /// True when `other` is the same capture row holding the same photos in the same order: what an
    /// undo requires of the captures it reverts. Photo rows are compared by id only, since a
    /// thumbnail remade meanwhile (`ingest thumbnails`) changes a row but not the capture.
    package func hasSameLayout(as other: CaptureSnapshot) -> Bool {
        capture == other.capture && photos.map(\.id) == other.photos.map(\.id)
    }
}
