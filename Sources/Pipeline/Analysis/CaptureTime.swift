package import Foundation
package import Vocabulary

/// When a photo was taken, and how sure we are of it.
///
/// EXIF stores a wall-clock time; the UTC offset comes from OffsetTimeOriginal when the camera wrote
/// it. Without an offset the time is kept as "offset unknown", never silently taken as UTC: the
/// ISO text then carries no offset, and `utc` (used only to order photos) treats the wall clock as UTC.
package struct CaptureTime: Sendable, Equatable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z (wall clock taken as UTC when the offset is unknown).
    package var utc: Double
    /// The UTC offset in seconds, when known.
    package var offsetSeconds: Int?
    /// Whether the text had sub-seconds (shown with millisecond precision).
    package var hasFraction: Bool
    package var source: TimeSource

    package init(utc: Double, offsetSeconds: Int?, hasFraction: Bool, source: TimeSource) {
        self.utc = utc
        self.offsetSeconds = offsetSeconds
        self.hasFraction = hasFraction
        self.source = source
    }

    /// `date` as an exact instant shown in UTC (`2026-11-20T08:00:00Z`), for the times the catalogue
    /// records itself; with `fraction`, to the millisecond.
    package init(recording date: Date, fraction: Bool = false) {
        self.init(utc: date.timeIntervalSince1970, offsetSeconds: 0, hasFraction: fraction, source: .fileTime)
    }

    package static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool { lhs.utc < rhs.utc }

    /// From EXIF DateTimeOriginal (`2026:11:20 09:00:00`), SubSecTimeOriginal (`674`) and
    /// OffsetTimeOriginal (`+01:00`); nil when the date is absent, blank (`0000:00:00 …`) or invalid.
    /// An unparseable offset counts as unknown.
    package static func fromExif(dateTime: String?, subSeconds: String?, offset: String?) -> CaptureTime? {
        guard let dateTime, let wall = parseWallClock(dateTime) else { return nil }
        var seconds = wall
        var hasFraction = false
        if let subSeconds, let fraction = parseFraction(subSeconds) {
            seconds += fraction
            hasFraction = true
        }
        let offsetSeconds = offset.flatMap(parseOffset)
        return CaptureTime(utc: seconds - Double(offsetSeconds ?? 0), offsetSeconds: offsetSeconds,
                           hasFraction: hasFraction, source: offsetSeconds == nil ? .exifWithoutOffset : .exif)
    }

    /// A file's modification time, as an exact instant shown in UTC.
    package static func fromFileTime(seconds: Int, nanoseconds: Int) -> CaptureTime {
        CaptureTime(utc: Double(seconds) + Double(nanoseconds) / 1e9, offsetSeconds: 0,
                    hasFraction: nanoseconds != 0, source: .fileTime)
    }

    /// ISO 8601: `2026-11-20T09:00:00.674+01:00`, `…Z` for file times, no offset when it is unknown.
    package var iso8601: String {
        let offset = offsetSeconds ?? 0
        let local = utc + Double(offset)
        var millis = Int64((local * 1000).rounded(.down))
        if !hasFraction { millis -= ((millis % 1000) + 1000) % 1000 }
        let totalSeconds = Int64((Double(millis) / 1000).rounded(.down))
        let days = Int((Double(totalSeconds) / 86400).rounded(.down))
        let secondOfDay = Int(totalSeconds - Int64(days) * 86400)
        let (year, month, day) = Self.civil(fromDays: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if hasFraction { text += "." + pad(Int(millis - totalSeconds * 1000), 3) }
        guard let offsetSeconds else { return text }
        if source == .fileTime && offsetSeconds == 0 { return text + "Z" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(offsetSeconds) / 60
        return text + "\(sign)\(pad(magnitude / 60, 2)):\(pad(magnitude % 60, 2))"
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
