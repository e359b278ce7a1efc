import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import Vocabulary
import TestSupport
import Catalog

final class CaptureTimeTests: XCTestCase {
    /// Seconds since 1970 of a UTC date-time, computed by Foundation (independently of the code under test).
    private func epoch(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0,
                       _ second: Int = 0) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)!.timeIntervalSince1970
    }

    // MARK: EXIF

    func testFromExif_withSubSecondsAndOffset_givesLocalTextAndUTCInstant() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: "674", offset: "+01:00"))
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00.674+01:00")
        XCTAssertEqual(time.utc, epoch(2026, 11, 20, 8) + 0.674, accuracy: 1e-6)
        XCTAssertEqual(time.offsetSeconds, 3600)
        XCTAssertTrue(time.hasFraction)
        XCTAssertEqual(time.source, .exif)
    }

    func testFromExif_negativeHalfHourOffset_isWestOfUTC() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: nil, offset: "-05:30"))
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00-05:30")
        XCTAssertEqual(time.utc, epoch(2026, 11, 20, 14, 30))
        XCTAssertEqual(time.offsetSeconds, -19_800)
        XCTAssertFalse(time.hasFraction)
    }

    func testFromExif_offsetLateInDay_movesUTCToNextDayButTextStaysLocal() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:12:31 22:30:00", subSeconds: nil, offset: "-02:00"))
        XCTAssertEqual(time.utc, epoch(2027, 1, 1, 0, 30))
        XCTAssertEqual(time.iso8601, "2026-12-31T22:30:00-02:00")
    }

    func testFromExif_withoutOffset_keepsWallClockAndNeverClaimsUTC() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: nil, offset: nil))
        XCTAssertEqual(time.source, .exifWithoutOffset)
        XCTAssertNil(time.offsetSeconds)
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00")
        XCTAssertEqual(time.utc, epoch(2026, 11, 20, 9), "the wall clock is taken as UTC, for ordering only")
    }

    func testFromExif_offsetZero_isWrittenAsOffsetNotZ() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: nil, offset: "+00:00"))
        XCTAssertEqual(time.source, .exif)
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00+00:00")
    }

    func testFromExif_blankOrInvalidDate_isNil() {
        for text in ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2026:13:20 09:00:00", "2026:02:30 09:00:00",
                     "2023:02:29 12:00:00", "1900:02:29 12:00:00", "2026:11:20 24:00:00", "2026:11:20 09:60:00",
                     "2026:11:20", "2026:11:20 09:00:xx"] {
            XCTAssertNil(CaptureTime.fromExif(dateTime: text, subSeconds: "674", offset: "+01:00"), "\"\(text)\"")
        }
        XCTAssertNil(CaptureTime.fromExif(dateTime: nil, subSeconds: "674", offset: "+01:00"))
    }

    func testFromExif_garbageOffset_isTreatedAsUnknown() throws {
        for offset in ["+25:00", "abc", "", "+1:00", "01:00", "+01:60"] {
            let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: nil, offset: offset))
            XCTAssertNil(time.offsetSeconds, "\"\(offset)\"")
            XCTAssertEqual(time.source, .exifWithoutOffset, "\"\(offset)\"")
            XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00", "\"\(offset)\"")
        }
    }

    func testFromExif_singleSubSecondDigit_isTenths() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: "5", offset: "+01:00"))
        XCTAssertEqual(time.utc, epoch(2026, 11, 20, 8) + 0.5)
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00.500+01:00")
    }

    func testFromExif_subSecondsUnderATenth_arePaddedToThreeDigits() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: "07", offset: "+01:00"))
        XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00.070+01:00")
        let tiny = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: "004", offset: nil))
        XCTAssertEqual(tiny.iso8601, "2026-11-20T09:00:00.004")
    }

    func testFromExif_unparseableSubSeconds_areIgnored() throws {
        for subSeconds in ["abc", "", "12.5", "1234567890"] {
            let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: subSeconds,
                                                          offset: "+01:00"))
            XCTAssertFalse(time.hasFraction, "\"\(subSeconds)\"")
            XCTAssertEqual(time.iso8601, "2026-11-20T09:00:00+01:00", "\"\(subSeconds)\"")
        }
    }

    func testFromExif_leapDay_isValid() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2024:02:29 23:59:59", subSeconds: nil, offset: "+00:00"))
        XCTAssertEqual(time.utc, epoch(2024, 2, 29, 23, 59, 59))
        XCTAssertEqual(time.iso8601, "2024-02-29T23:59:59+00:00")
        XCTAssertNotNil(CaptureTime.fromExif(dateTime: "2000:02:29 00:00:00", subSeconds: nil, offset: nil),
                        "2000 is a leap year: divisible by 400")
    }

    func testFromExif_before1970_roundTripsThroughText() throws {
        let time = try XCTUnwrap(CaptureTime.fromExif(dateTime: "1969:07:20 20:17:40", subSeconds: "5", offset: "+00:00"))
        XCTAssertEqual(time.utc, epoch(1969, 7, 20, 20, 17, 40) + 0.5)
        XCTAssertLessThan(time.utc, 0)
        XCTAssertEqual(time.iso8601, "1969-07-20T20:17:40.500+00:00")
    }

    // MARK: File time

    func testFromFileTime_isShownInUTCWithZ() {
        let time = CaptureTime.fromFileTime(seconds: 1_700_000_000, nanoseconds: 250_000_000)
        XCTAssertEqual(time.source, .fileTime)
        XCTAssertEqual(time.utc, 1_700_000_000.25)
        XCTAssertEqual(time.iso8601, "2023-11-14T22:13:20.250Z")
    }

    func testFromFileTime_wholeSecond_hasNoFraction() {
        let time = CaptureTime.fromFileTime(seconds: 1_700_000_000, nanoseconds: 0)
        XCTAssertFalse(time.hasFraction)
        XCTAssertEqual(time.iso8601, "2023-11-14T22:13:20Z")
    }

    func testOrdering_comparesUTCInstants() throws {
        let paris = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 09:00:00", subSeconds: nil, offset: "+01:00"))
        let newYork = try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 03:30:00", subSeconds: nil, offset: "-05:00"))
        XCTAssertLessThan(paris, newYork, "08:00Z is before 08:30Z although 09:00 reads later than 03:30")
    }

    // MARK: Parsers

    func testParseWallClock_acceptsDashAndTSeparators() {
        XCTAssertEqual(CaptureTime.parseWallClock("2026-11-20T09:00:00"), epoch(2026, 11, 20, 9))
        XCTAssertEqual(CaptureTime.parseWallClock("2026:11:20 09:00:00"), epoch(2026, 11, 20, 9))
    }

    func testParseOffset_validForms_giveSecondsEastOfUTC() {
        XCTAssertEqual(CaptureTime.parseOffset("+01:00"), 3600)
        XCTAssertEqual(CaptureTime.parseOffset("+0100"), 3600)
        XCTAssertEqual(CaptureTime.parseOffset("-05:30"), -19_800)
        XCTAssertEqual(CaptureTime.parseOffset(" +05:45 "), 20_700)
        XCTAssertEqual(CaptureTime.parseOffset("Z"), 0)
        XCTAssertEqual(CaptureTime.parseOffset("+14:00"), 50_400)
        XCTAssertEqual(CaptureTime.parseOffset("-12:00"), -43_200)
    }

    func testParseOffset_beyondFourteenHours_isNil() {
        // The documented contract: "nil when malformed or beyond ±14 h".
        XCTAssertNil(CaptureTime.parseOffset("+15:00"))
        XCTAssertNil(CaptureTime.parseOffset("+14:30"))
        XCTAssertNil(CaptureTime.parseOffset("-14:59"))
    }

    func testParseOffset_misplacedColon_isNil() {
        XCTAssertNil(CaptureTime.parseOffset("+01:0"))
        XCTAssertNil(CaptureTime.parseOffset("+01::00"))
        XCTAssertNil(CaptureTime.parseOffset("+0:100"))
        XCTAssertNil(CaptureTime.parseOffset("+:0100"))
    }

    func testParseFraction_scalesByDigitCount() {
        XCTAssertEqual(CaptureTime.parseFraction("674"), 0.674)
        XCTAssertEqual(CaptureTime.parseFraction("5"), 0.5)
        XCTAssertEqual(CaptureTime.parseFraction("05"), 0.05)
        XCTAssertEqual(CaptureTime.parseFraction("674  "), 0.674, "EXIF pads sub-seconds with spaces")
        XCTAssertNil(CaptureTime.parseFraction("-5"))
    }

    // MARK: Calendar arithmetic

    func testCivilDays_everyThirtySeventhDay_agreesWithFoundationAndRoundTrips() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: -100_000, through: 100_000, by: 37) {
            // One failure message, not thousands, when the arithmetic is off.
            let civil = CaptureTime.civil(fromDays: days)
            let back = CaptureTime.daysFromCivil(civil.year, civil.month, civil.day)
            let expected = calendar.dateComponents([.year, .month, .day],
                                                   from: Date(timeIntervalSince1970: Double(days) * 86_400))
            guard back == days, civil.year == expected.year, civil.month == expected.month, civil.day == expected.day else {
                return XCTFail("day \(days): got \(civil), back to \(back); Foundation says \(expected)")
            }
        }
    }

    func testCivilDays_epochAndNeighbours() {
        XCTAssertEqual(CaptureTime.daysFromCivil(1970, 1, 1), 0)
        XCTAssertTrue(CaptureTime.civil(fromDays: -1) == (1969, 12, 31))
        XCTAssertTrue(CaptureTime.civil(fromDays: 59) == (1970, 3, 1))
        XCTAssertEqual(CaptureTime.daysFromCivil(2000, 3, 1) - CaptureTime.daysFromCivil(2000, 2, 28), 2)
    }
}
