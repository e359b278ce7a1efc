/// Where a photo's capture time came from; stored by its raw value.
package enum TimeSource: String, CaseIterable, Sendable, Codable {
    /// EXIF DateTimeOriginal with its UTC offset.
    case exif
    /// EXIF DateTimeOriginal without an offset: a wall-clock time, never silently taken as UTC.
    case exifWithoutOffset = "exif-no-offset"
    /// The file's modification time: a marked fallback for photos without EXIF time.
    case fileTime = "file-time"

    /// How the source reads to a person: where the time came from and whether its offset is known.
    package var explanation: String {
        switch self {
        case .exif: "EXIF, offset known"
        case .exifWithoutOffset: "EXIF, offset unknown"
        case .fileTime: "file modification time"
        }
    }
}
