/// When a photo was taken, and how sure we are of it.
///
/// EXIF stores a wall-clock time; the UTC offset comes from OffsetTimeOriginal when the camera wrote
/// it. Without an offset the time is kept as "offset unknown", never silently taken as UTC: the
/// ISO text then carries no offset, and `utc` (used only to order photos) treats the wall clock as UTC.
public struct CaptureTime: Sendable, Equatable, Comparable {
    /// Where the time came from.
    public enum Source: String, Sendable {
        case exif
        case exifWithoutOffset = "exif-no-offset"
        /// The file's modification time: a marked fallback for photos without EXIF time.
        case fileTime = "file-time"
    }

    /// Seconds since 1970-01-01T00:00:00Z (wall clock taken as UTC when the offset is unknown).
    public var utc: Double
    /// The UTC offset in seconds, when known.
    public var offsetSeconds: Int?
    /// Whether the text had sub-seconds (shown with millisecond precision).
    public var hasFraction: Bool
    public var source: Source

    public init(utc: Double, offsetSeconds: Int?, hasFraction: Bool, source: Source) {
        self.utc = utc
        self.offsetSeconds = offsetSeconds
        self.hasFraction = hasFraction
        self.source = source
    }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool { lhs.utc < rhs.utc }

    /// From EXIF DateTimeOriginal (`2026:11:20 09:00:00`), SubSecTimeOriginal (`674`) and
    /// OffsetTimeOriginal (`+01:00`); nil when the date is absent, blank (`0000:00:00 …`) or invalid.
    /// An unparseable offset counts as unknown.
    public static func fromExif(dateTime: String?, subSeconds: String?, offset: String?) -> CaptureTime? {
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
    public static func fromFileTime(seconds: Int, nanoseconds: Int) -> CaptureTime {
        CaptureTime(utc: Double(seconds) + Double(nanoseconds) / 1e9, offsetSeconds: 0,
                    hasFraction: nanoseconds != 0, source: .fileTime)
    }

    /// ISO 8601: `2026-11-20T09:00:00.674+01:00`, `…Z` for file times, no offset when it is unknown.
    public var iso8601: String {
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

    // MARK: Parsing

    /// `YYYY:MM:DD HH:MM:SS` (also `-` as date separator, `T` between date and time) as seconds since 1970.
    static func parseWallClock(_ text: String) -> Double? {
        let numbers = text.split(whereSeparator: { ":- T".contains($0) }).map { Int($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        let n = numbers.map { $0! }
        let (year, month, day, hour, minute, second) = (n[0], n[1], n[2], n[3], n[4], n[5])
        guard (1900...2200).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let days = daysFromCivil(year, month, day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second)
    }

    /// `674` → 0.674, `5` → 0.5; nil for anything but 1…9 digits.
    static func parseFraction(_ text: String) -> Double? {
        let digits = text.trimmingSpaces
        guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let value = Double("0." + digits) else {
            return nil
        }
        return value
    }

    /// `+01:00`, `-05:30`, `+0100`, `Z` as seconds east of UTC; nil when malformed or beyond ±14 h.
    static func parseOffset(_ text: String) -> Int? {
        let value = text.trimmingSpaces
        if value == "Z" { return 0 }
        guard let sign = value.first, sign == "+" || sign == "-" else { return nil }
        // Exactly `HH:MM` or `HHMM`: a colon anywhere else is malformed.
        var body = Array(value.dropFirst())
        if body.count == 5, body[2] == ":" { body.remove(at: 2) }
        guard body.count == 4, body.allSatisfy(\.isASCIIDigit),
              let hours = Int(String(body[0...1])), let minutes = Int(String(body[2...3])), minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        guard seconds <= 14 * 3600 else { return nil }
        return sign == "-" ? -seconds : seconds
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first?.isWhitespace == true { view.removeFirst() }
        while view.last?.isWhitespace == true || view.last == "\0" { view.removeLast() }
        return String(view)
    }
}
