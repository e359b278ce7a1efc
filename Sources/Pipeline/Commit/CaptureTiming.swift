import Vocabulary

/// Which of a capture's photos gives the capture its time.
enum CaptureTiming {
    /// The index, among a capture's photos in their order, of the photo whose time is the
    /// capture's: the first, unless that one has only its file's time and a photo after it has an
    /// earlier camera time with its offset (a time without one is no instant to compare); then the
    /// first photo with the camera's time. The first took its place by name because the set's file
    /// times no longer said when its photos were taken (`CaptureGrouper.timeOrdered`): an upload or
    /// a copy wrote the files, and its own time is that, not when the product was photographed.
    /// The commit and every correction's recount decide it alike, from the photos alone.
    static func timedBy(_ photos: [(source: TimeSource, utc: Double)]) -> Int {
        guard let first = photos.first, first.source == .fileTime,
              photos.dropFirst().contains(where: { $0.source == .exif && $0.utc < first.utc }),
              let camera = photos.indices.dropFirst().first(where: { photos[$0].source != .fileTime })
        else { return 0 }
        return camera
    }
}
