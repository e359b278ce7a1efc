import Catalog
import Vocabulary
import Imaging

extension Photo {
    /// The catalogue row for an analysed photo placed at `originalPath` / `thumbPath` in the library.
    init(analysed photo: AnalysedPhoto, id: String, captureId: String, position: Int, originalPath: String,
         thumbPath: String) {
        self.init(
            id: id, captureId: captureId, position: position, originalName: photo.file.name,
            sourcePath: photo.file.relativePath, originalPath: originalPath, thumbPath: thumbPath,
            thumbWidth: photo.thumbnail.width, thumbHeight: photo.thumbnail.height, sha256: photo.sha256,
            byteSize: photo.byteSize, format: photo.format, width: photo.width, height: photo.height,
            orientation: photo.orientation, make: photo.make, model: photo.model, takenAt: photo.time.iso8601,
            takenUTC: photo.time.utc, timeSource: photo.time.source, sharpness: photo.quality.sharpness,
            contrast: photo.quality.contrast, brightness: photo.quality.brightness,
            decodeConfidence: photo.quality.decode, quality: photo.quality.overall,
            rating: photo.quality.rating,
            originalModified: photo.source.modifiedSeconds * 1_000_000_000 + photo.source.modifiedNanoseconds)
    }
}

extension BarcodeHit {
    init(reading: BarcodeReading, photoId: String) {
        self.init(photoId: photoId, symbology: reading.symbology, text: reading.text, gtin13: reading.gtin13,
                  quality: reading.quality, x: reading.box.x, y: reading.box.y, width: reading.box.width,
                  height: reading.box.height, addon: reading.addon)
    }
}

extension Capture {
    /// The catalogue row for a group of photos; its time is its first photo's, or where that one's
    /// file time is an upload's, its first camera time (`CaptureTiming`). `context` is the set's
    /// sidecar, kept at `contextPath` in the library.
    init(group: PhotoGroup<AnalysedPhoto>, id: String, runId: Int64?, setName: String, createdAt: String,
         context: CaptureContext?, contextPath: String?) {
        let timed = group.photos[CaptureTiming.timedBy(group.photos.map { ($0.time.source, $0.time.utc) })]
        let quality = group.photos.map(\.quality.overall).reduce(0, +) / Double(group.photos.count)
        self.init(id: id, runId: runId, setName: setName, barcode: group.barcode?.text,
                  symbology: group.barcode?.symbology, gtin13: group.barcode?.gtin13,
                  capturedAt: timed.time.iso8601, capturedUTC: timed.time.utc, timeSource: timed.time.source,
                  photoCount: group.photos.count, quality: quality, rating: Rating(score: quality),
                  createdAt: createdAt, agentId: context?.agentId, agentName: context?.agentName,
                  requestId: context?.requestId, note: context?.note, contextPath: contextPath,
                  addon: Self.addon(of: group))
    }

    /// The add-on of the group's barcode: its own, or any photo's read of the same code that has one.
    static func addon(of group: PhotoGroup<AnalysedPhoto>) -> String? {
        guard let barcode = group.barcode else { return nil }
        return barcode.addon ?? group.photos.lazy.flatMap(\.barcodes)
            .first { $0.productKey == barcode.productKey && $0.addon != nil }?.addon
    }
}
