/// What the grouper needs to know of a photo.
package protocol Groupable {
    var groupingName: String { get }
    var time: CaptureTime { get }
    /// The file's modification time, seconds since 1970 (UTC). For a photo without EXIF time it is
    /// `time`; for the others it shows whether the set's file times still record when the photos
    /// were taken (`CaptureGrouper.timeOrdered`).
    var fileTime: Double { get }
    /// Every code read on the photo, best first (`PhotoAnalyzer.deduplicated`).
    var barcodes: [BarcodeReading] { get }
}
