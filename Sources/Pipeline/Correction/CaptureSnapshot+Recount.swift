import Catalog
import Vocabulary

extension CaptureSnapshot {
    /// The capture's figures made again from its photos, as a commit makes them: positions in order,
    /// the count, the mean quality and its rating, and the capture time of the first photo (or of
    /// the first with the camera's time, where the first's file time is an upload's: `CaptureTiming`).
    func recounted() -> CaptureSnapshot {
        var result = self
        for index in result.photos.indices {
            result.photos[index].position = index
            result.photos[index].captureId = capture.id
        }
        let timed = result.photos[CaptureTiming.timedBy(result.photos.map { ($0.timeSource, $0.takenUTC) })]
        result.capture.photoCount = result.photos.count
        result.capture.quality = result.photos.map(\.quality).reduce(0, +) / Double(result.photos.count)
        result.capture.rating = Rating(score: result.capture.quality)
        (result.capture.capturedAt, result.capture.capturedUTC, result.capture.timeSource) =
            (timed.takenAt, timed.takenUTC, timed.timeSource)
        result.capture.addon = result.capture.gtin13.map { code in
            result.hits.first { $0.gtin13 == code && $0.addon != nil }?.addon
        } ?? nil
        return result
    }

    /// These of the capture's photos, with their hits, as a capture `id` with the same context.
    func part(_ photos: [Photo], id: String) -> CaptureSnapshot {
        let ids = Set(photos.map(\.id))
        var capture = self.capture
        capture.id = id
        return CaptureSnapshot(capture: capture, photos: photos, hits: hits.filter { ids.contains($0.photoId) },
                               texts: texts.filter { ids.contains($0.photoId) })
    }

    /// Whether one of the photos read the capture's code.
    var readsCaptureCode: Bool {
        guard let code = capture.gtin13 ?? capture.barcode else { return false }
        return hits.contains { $0.code == code }
    }

    /// The code the photos' hits agree on — every hit one code — or nil when they read none or several.
    var agreedCode: (text: String, symbology: Symbology, gtin13: String?)? {
        guard let first = hits.first, hits.allSatisfy({ $0.code == first.code }) else {
            return nil
        }
        return (first.text, first.symbology, first.gtin13)
    }
}

extension Capture {
    /// Sets the barcode, its symbology and GTIN-13 together; nil removes all three. The add-on
    /// goes with a code that changes.
    mutating func setCode(_ code: (text: String, symbology: Symbology, gtin13: String?)?) {
        if code.map({ $0.gtin13 ?? $0.text }) != (gtin13 ?? barcode) { addon = nil }
        (barcode, symbology, gtin13) = (code?.text, code?.symbology, code?.gtin13)
    }
}
