@testable import Imaging
@testable import Pipeline
import TestSupport
import XCTest
import Vocabulary
import Catalog

/// The least a photo needs to be grouped.
private struct TestPhoto: Groupable, Equatable {
    var groupingName: String
    var time: CaptureTime
    var fileTime: Double
    var barcodes: [BarcodeReading]

    /// A photo taken `seconds` after a fixed instant, with a known offset (source `.exif`).
    init(_ name: String, at seconds: Double, _ barcode: BarcodeReading? = nil) {
        self.init(name, time: CaptureTime(utc: 1_800_000_000 + seconds, offsetSeconds: 0, hasFraction: false,
                                          source: .exif), barcode)
    }

    /// Its file written when it was taken, unless `fileTime` says otherwise.
    init(_ name: String, time: CaptureTime, fileTime: Double? = nil, _ barcode: BarcodeReading? = nil) {
        groupingName = name
        self.time = time
        self.fileTime = fileTime ?? time.utc
        barcodes = barcode.map { [$0] } ?? []
    }

    /// A photo taken `seconds` after the fixed instant that read several codes, best first.
    init(_ name: String, at seconds: Double, codes: [BarcodeReading]) {
        self.init(name, at: seconds)
        barcodes = codes
    }

    /// A photo taken `seconds` after the fixed instant whose file was last written at `fileSeconds`.
    init(_ name: String, at seconds: Double, fileAt fileSeconds: Double, _ barcode: BarcodeReading? = nil) {
        self.init(name, time: CaptureTime(utc: 1_800_000_000 + seconds, offsetSeconds: 0, hasFraction: false,
                                          source: .exif), fileTime: 1_800_000_000 + fileSeconds, barcode)
    }

    /// A photo without EXIF time, its file last written at `fileSeconds` after the fixed instant.
    init(_ name: String, withoutExifFileAt fileSeconds: Double, _ barcode: BarcodeReading? = nil) {
        self.init(name, time: .fromFileTime(seconds: 1_800_000_000 + Int(fileSeconds), nanoseconds: 0), barcode)
    }
}

private let coffee = makeReading(.ean13, "4006381333931", gtin13: "4006381333931")
private let tea = makeReading(.ean13, "5901234123457", gtin13: "5901234123457")
private let colaUPC = makeReading(.upcA, "036000291452", gtin13: "0036000291452")
private let colaEAN = makeReading(.ean13, "0036000291452", gtin13: "0036000291452")
private let link = makeReading(.qr, "https://example.com/coffee")
private let isbn = makeReading(.ean13, "9784101010014", gtin13: "9784101010014")
private let priceCode = makeReading(.ean13, "1920193006001", gtin13: "1920193006001")

final class CaptureGrouperTests: XCTestCase {
    private let grouper = CaptureGrouper(gapSeconds: 60, mode: .time)

    /// The captures as lists of photo names, which is what most tests are about.
    private func names(_ groups: [PhotoGroup<TestPhoto>]) -> [[String]] {
        groups.map { $0.photos.map(\.groupingName) }
    }

    func testGroup_whenBarcodeChanges_startsNewCapture() {
        let groups = grouper.group([TestPhoto("a", at: 0, coffee), TestPhoto("b", at: 5, tea)])
        XCTAssertEqual(names(groups), [["a"], ["b"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee, tea])
    }

    func testGroup_whenSameBarcodeRepeats_continuesCapture() {
        let groups = grouper.group([TestPhoto("a", at: 0, coffee), TestPhoto("b", at: 5), TestPhoto("c", at: 10, coffee)])
        XCTAssertEqual(names(groups), [["a", "b", "c"]])
        XCTAssertEqual(groups.first?.barcode, coffee)
    }

    func testGroup_whenGapExceedsLimit_startsNewCapture() {
        let groups = grouper.group([TestPhoto("a", at: 0, coffee), TestPhoto("b", at: 60.001, coffee)])
        XCTAssertEqual(names(groups), [["a"], ["b"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee, coffee], "each capture keeps its own barcode")
    }

    func testGroup_whenGapEqualsLimit_continuesCapture() {
        let groups = grouper.group([TestPhoto("a", at: 0), TestPhoto("b", at: 60), TestPhoto("c", at: 120)])
        XCTAssertEqual(names(groups), [["a", "b", "c"]], "the gap is measured to the previous photo, not the first")
    }

    func testGroup_frontPhotoBeforeBarcodePhoto_joinsItsCapture() {
        let groups = grouper.group([TestPhoto("front", at: 0), TestPhoto("back", at: 20, coffee),
                                    TestPhoto("next-front", at: 30), TestPhoto("next-back", at: 40, tea)])
        XCTAssertEqual(names(groups), [["front", "back", "next-front"], ["next-back"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee, tea])
    }

    func testGroup_photosWithoutAnyBarcode_formCaptureWithoutBarcode() throws {
        let groups = grouper.group([TestPhoto("a", at: 0), TestPhoto("b", at: 1)])
        XCTAssertEqual(names(groups), [["a", "b"]])
        XCTAssertNil(try XCTUnwrap(groups.first).barcode)
    }

    func testGroup_captureBarcode_isFirstInTimeOrderNotInInputOrder() {
        let late = makeReading(.ean13, "4006381333931", gtin13: "4006381333931", quality: 9)
        let groups = grouper.group([TestPhoto("b", at: 10, late), TestPhoto("a", at: 0, coffee)])
        XCTAssertEqual(names(groups), [["a", "b"]])
        XCTAssertEqual(groups.first?.barcode?.quality, coffee.quality, "the earlier photo's reading, not the better one")
    }

    func testGroup_upcAAndEAN13OfSameGTIN_areSameProduct() {
        let groups = grouper.group([TestPhoto("a", at: 0, colaUPC), TestPhoto("b", at: 5, colaEAN)])
        XCTAssertEqual(names(groups), [["a", "b"]])
        XCTAssertEqual(groups.first?.barcode, colaUPC)
    }

    func testGroup_sameInstant_ordersByName() {
        let groups = grouper.group([TestPhoto("IMG_2.jpg", at: 0), TestPhoto("IMG_1.jpg", at: 0),
                                    TestPhoto("IMG_0.jpg", at: -1)])
        XCTAssertEqual(names(groups), [["IMG_0.jpg", "IMG_1.jpg", "IMG_2.jpg"]])
    }

    func testGroup_sameInstantDifferentBarcodes_splitInNameOrder() {
        let groups = grouper.group([TestPhoto("b", at: 0, tea), TestPhoto("a", at: 0, coffee)])
        XCTAssertEqual(names(groups), [["a"], ["b"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee, tea])
    }

    func testGroup_shuffledInput_givesSameCaptures() {
        let photos = [TestPhoto("f1", at: 0), TestPhoto("b1", at: 10, coffee), TestPhoto("x1", at: 10),
                      TestPhoto("b2", at: 20, tea), TestPhoto("late", at: 200), TestPhoto("b3", at: 230, tea),
                      TestPhoto("b4", at: 240, coffee)]
        let expected = [["f1", "b1", "x1"], ["b2"], ["late", "b3"], ["b4"]]
        XCTAssertEqual(names(grouper.group(photos)), expected)
        var random = SplitMix64(seed: 42)
        for _ in 0..<20 {
            let shuffled = photos.shuffled(using: &random)
            let groups = grouper.group(shuffled)
            XCTAssertEqual(names(groups), expected, "input \(shuffled.map(\.groupingName))")
            XCTAssertEqual(groups.map(\.barcode), [coffee, tea, tea, coffee])
        }
    }

    func testGroup_folderMode_makesOneCaptureWithFirstBarcode() {
        let grouper = CaptureGrouper(gapSeconds: 60, mode: .folder)
        let groups = grouper.group([TestPhoto("c", at: 5000, coffee), TestPhoto("a", at: 0),
                                    TestPhoto("b", at: 10, tea)])
        XCTAssertEqual(names(groups), [["a", "b", "c"]], "one capture in time order despite gap and barcode change")
        XCTAssertEqual(groups.first?.barcode, tea)
    }

    func testGroup_secondCodeOnAPhoto_neitherSplitsTheCaptureNorBecomesItsKey() {
        // The middle photo shows the coffee beside the tea on the shelf, the tea's code ranked first.
        let groups = grouper.group([TestPhoto("front", at: 0, coffee), TestPhoto("shelf", at: 5, codes: [tea, coffee]),
                                    TestPhoto("back", at: 10, coffee)])
        XCTAssertEqual(names(groups), [["front", "shelf", "back"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee])
    }

    func testGroup_photoThatReadsOnlyAnotherCode_splitsWhereTheKeyChanges() {
        let groups = grouper.group([TestPhoto("shelf", at: 0, codes: [coffee, tea]), TestPhoto("tea", at: 5, tea),
                                    TestPhoto("coffee", at: 10, coffee)])
        XCTAssertEqual(names(groups), [["shelf", "tea"], ["coffee"]])
        XCTAssertEqual(groups.map(\.barcode), [tea, coffee], "the shelf photo's first code is not the key its capture shares")
    }

    func testGroup_retailCodeAndAQRCodeOnThePackage_keyIsTheRetailCode() {
        let groups = grouper.group([TestPhoto("qr", at: 0, codes: [link, coffee]), TestPhoto("back", at: 5, codes: [coffee, link])])
        XCTAssertEqual(names(groups), [["qr", "back"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee])
    }

    func testGroup_booksISBNAndItsPriceCode_keyIsTheISBN() {
        // Both on each photo, the price code read along more lines and ranked first on the second.
        let groups = grouper.group([TestPhoto("back", at: 0, codes: [isbn, priceCode]),
                                    TestPhoto("closer", at: 5, codes: [priceCode, isbn])])
        XCTAssertEqual(groups.map(\.barcode), [isbn])
    }

    func testGroup_folderMode_keyIsTheRetailCodeReadOnMostPhotos() {
        let grouper = CaptureGrouper(gapSeconds: 60, mode: .folder)
        let groups = grouper.group([TestPhoto("a", at: 0, link), TestPhoto("b", at: 1, link), TestPhoto("c", at: 2, coffee),
                                    TestPhoto("d", at: 3, tea), TestPhoto("e", at: 4, tea)])
        XCTAssertEqual(groups.map(\.barcode), [tea], "retail before the QR code read on as many photos, then most photos")
        XCTAssertEqual(grouper.group([TestPhoto("a", at: 0, link), TestPhoto("b", at: 1, link)]).map(\.barcode), [link])
    }

    func testGroup_emptyInput_hasNoCaptures() {
        XCTAssertTrue(grouper.group([TestPhoto]()).isEmpty)
        XCTAssertTrue(CaptureGrouper(gapSeconds: 60, mode: .folder).group([TestPhoto]()).isEmpty)
    }

    func testGroup_photoWithoutOffset_borrowsSetsUsualOffsetForOrdering() throws {
        // Three photos from a phone at +02:00, and one whose EXIF lost its offset (taken between
        // them by wall clock). Taken as UTC it would sort two hours late and form its own capture.
        func exif(_ wall: String, _ offset: String?) throws -> CaptureTime {
            try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 " + wall, subSeconds: nil, offset: offset))
        }
        let photos = [TestPhoto("a", time: try exif("10:00:00", "+02:00"), coffee),
                      TestPhoto("b", time: try exif("10:00:30", "+02:00")),
                      TestPhoto("no-offset", time: try exif("10:00:45", nil)),
                      TestPhoto("c", time: try exif("10:01:00", "+02:00")),
                      TestPhoto("odd", time: try exif("09:01:30", "+01:00"))]
        let groups = grouper.group(photos)
        XCTAssertEqual(names(groups), [["a", "b", "no-offset", "c", "odd"]])
        let ordered = grouper.timeOrdered(photos)
        XCTAssertEqual(ordered.map(\.instant)[2], photos[2].time.utc - 7200, "borrowed +02:00, not the odd +01:00")
    }

    func testGroup_setWithoutAnyOffset_ordersByWallClock() throws {
        func wall(_ text: String) throws -> CaptureTime {
            try XCTUnwrap(CaptureTime.fromExif(dateTime: "2026:11:20 " + text, subSeconds: nil, offset: nil))
        }
        let groups = grouper.group([TestPhoto("b", time: try wall("10:00:30")), TestPhoto("a", time: try wall("10:00:00")),
                                    TestPhoto("c", time: try wall("10:05:00"))])
        XCTAssertEqual(names(groups), [["a", "b"], ["c"]])
    }

    func testGroup_setCopiedWithoutItsFileTimes_placesPhotoWithoutExifTimeByName() {
        // Copied days later (cp without -p, an upload): every file time is the copy's. The photo
        // whose EXIF lost its time would sort after all the others and, by the gap, stand alone.
        let copied = 400_000.0
        let groups = grouper.group([TestPhoto("IMG_01", at: 0, fileAt: copied, coffee),
                                    TestPhoto("IMG_02", at: 10, fileAt: copied),
                                    TestPhoto("IMG_03", withoutExifFileAt: copied),
                                    TestPhoto("IMG_04", at: 300, fileAt: copied, tea),
                                    TestPhoto("IMG_05", at: 310, fileAt: copied)])
        XCTAssertEqual(names(groups), [["IMG_01", "IMG_02", "IMG_03"], ["IMG_04", "IMG_05"]])
        XCTAssertEqual(groups.map(\.barcode), [coffee, tea])
    }

    func testGroup_photoWithoutExifTimeNamedFirst_joinsThePhotoNamedAfterIt() {
        let groups = grouper.group([TestPhoto("IMG_01", withoutExifFileAt: 900),
                                    TestPhoto("IMG_02", at: 0, fileAt: 900, coffee),
                                    TestPhoto("IMG_03", at: 300, fileAt: 900, tea)])
        XCTAssertEqual(names(groups), [["IMG_01", "IMG_02"], ["IMG_03"]])
    }

    func testGroup_photoWithoutExifTimeAndAnotherBarcode_stillStartsItsOwnCapture() {
        let groups = grouper.group([TestPhoto("IMG_01", at: 0, fileAt: 900, coffee),
                                    TestPhoto("IMG_02", withoutExifFileAt: 900, tea),
                                    TestPhoto("IMG_03", at: 20, fileAt: 900, tea)])
        XCTAssertEqual(names(groups), [["IMG_01"], ["IMG_02", "IMG_03"]])
    }

    func testGroup_fileTimesThatStillRecordCaptures_areBelievedForPhotosWithoutExifTime() {
        // Each photo with EXIF time has its file written within the gap of it: the file time of
        // the one without is taken as its capture time, gap and all, whatever its name.
        let groups = grouper.group([TestPhoto("IMG_01", at: 0, fileAt: 1, coffee),
                                    TestPhoto("IMG_02", withoutExifFileAt: 1000),
                                    TestPhoto("IMG_03", at: 10, fileAt: 11)])
        XCTAssertEqual(names(groups), [["IMG_01", "IMG_03"], ["IMG_02"]])
    }

    func testGroup_setWithoutAnyExifTime_goesByItsFileTimes() {
        let groups = grouper.group([TestPhoto("IMG_02", withoutExifFileAt: 10), TestPhoto("IMG_01", withoutExifFileAt: 500),
                                    TestPhoto("IMG_03", withoutExifFileAt: 20)])
        XCTAssertEqual(names(groups), [["IMG_02", "IMG_03"], ["IMG_01"]])
    }

    func testGroup_sameInstant_ordersNumbersInNamesByTheirValue() {
        let groups = grouper.group([TestPhoto("IMG_10.jpg", at: 0), TestPhoto("IMG_9.jpg", at: 0),
                                    TestPhoto("image (10).jpg", at: 0), TestPhoto("image.jpg", at: 0),
                                    TestPhoto("image (2).jpg", at: 0)])
        XCTAssertEqual(names(groups), [["IMG_9.jpg", "IMG_10.jpg", "image.jpg", "image (2).jpg", "image (10).jpg"]])
    }

    func testGroup_uploadNamedAsItCame_placesPhotoWithoutExifTimeByItsNumber() {
        // An upload names clashing photos `image.jpg`, `image (2).jpg`, …: by characters
        // `image (10)` would sort before `image (2)` and borrow the time of the wrong product.
        let uploaded = 400_000.0
        let groups = grouper.group([TestPhoto("image.jpg", at: 0, fileAt: uploaded, coffee),
                                    TestPhoto("image (2).jpg", at: 10, fileAt: uploaded),
                                    TestPhoto("image (10).jpg", withoutExifFileAt: uploaded),
                                    TestPhoto("image (11).jpg", at: 300, fileAt: uploaded, tea)])
        XCTAssertEqual(names(groups), [["image.jpg", "image (2).jpg", "image (10).jpg"], ["image (11).jpg"]])
    }

    func testIsNamedBefore_isATotalOrder() {
        let names = ["a/IMG_2.jpg", "a/IMG_10.jpg", "IMG_1.jpg", "IMG_01.jpg", "IMG_1.png", ".jpg", "photo", "photo.jpg"]
        for name in names {
            XCTAssertFalse(CaptureGrouper.isNamed(name, before: name), name)
            for other in names where other != name {
                XCTAssertNotEqual(CaptureGrouper.isNamed(name, before: other), CaptureGrouper.isNamed(other, before: name),
                                  "\(name) and \(other)")
            }
        }
        XCTAssertTrue(CaptureGrouper.isNamed("a/IMG_2.jpg", before: "a/IMG_10.jpg"))
    }
}
