import Foundation

/// A `--since` / `--until` value (also the catalogue page's date filters): a day (`2026-11-01`) or an ISO 8601 time (`2026-11-01T09:30:00+01:00`,
/// `…Z`, seconds and fractions optional).
///
/// A day starts at midnight UTC, and `--until` a day includes that whole day. A time without an
/// offset is read as UTC, as the catalogue orders captures whose camera recorded no offset.
package struct TimeBound: Hashable, Sendable {
    /// Seconds since 1970 of the start of the day, or of the time.
    package var seconds: Double
    /// Whether the value was a bare day.
    package var isDay: Bool

    /// The exclusive upper bound `--until` means: the end of a day, or the time itself.
    package var untilSeconds: Double { isDay ? seconds + 86_400 : seconds }

    /// Made for each value: a `Regex` is not `Sendable`, so it cannot be shared as a constant.
    private static var pattern: Regex<AnyRegexOutput> {
        try! Regex(#"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?"#)
    }

    /// Reads a day or a time; nil for anything else, a date that does not exist included.
    package init?(parsing argument: String) {
        guard let match = argument.wholeMatch(of: Self.pattern) else { return nil }
        let text = { (index: Int) -> String? in match.output[index].substring.map(String.init) }
        let number = { (index: Int) -> Int in text(index).flatMap { Int($0) } ?? 0 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = DateComponents(year: number(1), month: number(2), day: number(3),
                                   hour: number(4), minute: number(5), second: number(6))
        guard (1...12).contains(number(2)), (1...31).contains(number(3)), number(4) < 24, number(5) < 60,
              number(6) < 61, let date = calendar.date(from: parts),
              calendar.component(.day, from: date) == number(3) else { return nil }
        seconds = date.timeIntervalSince1970 + (text(7).flatMap { Double("0" + $0) } ?? 0)
        isDay = text(4) == nil
        if let zone = text(8), zone != "Z" {
            let digits = zone.dropFirst().filter(\.isNumber).compactMap(\.wholeNumberValue)
            let offset = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
            seconds -= Double(zone.hasPrefix("-") ? -offset : offset)
        }
    }
}
