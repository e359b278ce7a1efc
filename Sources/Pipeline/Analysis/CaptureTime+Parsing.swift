import Vocabulary

extension CaptureTime {
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

private extension String {
    /// Without leading white space and trailing white space or NULs, as EXIF text pads its values.
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first?.isWhitespace == true { view.removeFirst() }
        while view.last?.isWhitespace == true || view.last == "\0" { view.removeLast() }
        return String(view)
    }
}
