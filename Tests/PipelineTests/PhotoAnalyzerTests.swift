import Catalog
import FileSystem
import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import XCTest
import Vocabulary
import SystemPackage

final class PhotoAnalyzerTests: XCTestCase {
    /// The real image files the analyser reads, and their SHA-256 as Python computed them.
    private struct Fixture: Sendable {
        var folder: String
        var hashes: [String: String]
    }

    /// Made once for the class: Python takes about half a second.
    private static let fixture = Result<Fixture, any Error> {
        let folder = try makeDetachedTemporaryFolder()
        let output = try runPython(analyzerFixtureScript, arguments: [folder])
        let hashes = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        try FileManager.default.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent("link.jpg"),
                                                   withDestinationPath: "barcode.jpg")
        let fifo = FilePath(folder).appending("fifo.jpg")
        guard mkfifo(fifo.string, 0o644) == 0 else { throw FileOperationError(operation: "mkfifo", path: fifo, code: errno) }
        return Fixture(folder: folder, hashes: hashes)
    }

    override class func tearDown() {
        if case .success(let fixture) = fixture { try? FileManager.default.removeItem(atPath: fixture.folder) }
        super.tearDown()
    }

    private static var folder: String? { try? fixture.get().folder }
    private static var hashes: [String: String] { (try? fixture.get().hashes) ?? [:] }

    private var staging = ""

    override func setUpWithError() throws {
        _ = try Self.fixture.get()
        staging = try makeTemporaryFolder()
    }

    private func outcome(_ name: String, configure: (inout PipelineConfig) -> Void = { _ in },
                         catalogued: (String) -> Photo? = { _ in nil }) throws -> PhotoOutcome {
        let folder = try XCTUnwrap(Self.folder)
        var config = PipelineConfig(folder: FilePath(folder))
        config.maxPixels = 100_000_000
        configure(&config)
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: FilePath(staging))
        let file = InboxFile(setName: "s", relativePath: name, absolutePath: FilePath(folder).appending(name))
        let outcome = analyzer.analyse(file, catalogued: catalogued)
        switch outcome {
        case .analysed(let photo): XCTAssertEqual(photo.file, file)
        case .catalogued(let reported, _), .rejected(let reported, _): XCTAssertEqual(reported, file)
        }
        return outcome
    }

    /// The analysis as a `Result`, for files no catalogue knows.
    private func analyse(_ name: String, configure: (inout PipelineConfig) -> Void = { _ in })
        throws -> Result<AnalysedPhoto, PhotoError> {
        switch try outcome(name, configure: configure) {
        case .analysed(let photo): return .success(photo)
        case .rejected(_, let error): return .failure(error)
        case .catalogued: throw PhotoError.internalFailure("reported as catalogued without a catalogue")
        }
    }

    private func photo(_ name: String, configure: (inout PipelineConfig) -> Void = { _ in }) throws -> AnalysedPhoto {
        try analyse(name, configure: configure).get()
    }

    /// Asserts that `name` is refused with `expected` and leaves no thumbnail behind.
    private func assertRefused(_ name: String, _ expected: PhotoError, line: UInt = #line,
                               configure: (inout PipelineConfig) -> Void = { _ in }) throws {
        switch try analyse(name, configure: configure) {
        case .success: XCTFail("\(name) was accepted", line: line)
        case .failure(let error): XCTAssertEqual(error, expected, line: line)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging), [], line: line)
    }

    // MARK: A real photo

    func testAnalyse_barcodePhoto_readsEAN13WithGTIN() throws {
        let photo = try photo("barcode.jpg")
        XCTAssertEqual(photo.barcodes.map(\.text), ["4006381333931"])
        let reading = try XCTUnwrap(photo.barcodes.first)
        XCTAssertEqual(reading.symbology, .ean13)
        XCTAssertEqual(reading.gtin13, "4006381333931")
        XCTAssertGreaterThan(reading.quality, 0)
        XCTAssertEqual(photo.quality.decode ?? -1, min(1, Double(reading.quality) / 6), accuracy: 1e-12)
        // The bars lie in x 260…410, y 121…406 of the stored (unrotated) 640×480 pixels.
        let box = reading.box
        XCTAssertTrue(box.x >= 240 && box.x + box.width <= 440 && box.y >= 88 && box.y + box.height <= 440, "\(box)")
        XCTAssertGreaterThan(max(box.width, box.height), 100, "\(box)")
    }

    func testAnalyse_barcodePhoto_takesTimeMakeAndModelFromExif() throws {
        let photo = try photo("barcode.jpg")
        XCTAssertEqual(photo.time.iso8601, "2026-11-20T09:00:00.674+01:00")
        XCTAssertEqual(photo.time.source, .exif)
        XCTAssertEqual(photo.make, "Robo")
        XCTAssertEqual(photo.model, "Capture 1")
    }

    func testAnalyse_orientationSix_reportsUprightSizeAndUprightThumbnail() throws {
        let photo = try photo("barcode.jpg")
        XCTAssertEqual(photo.orientation, 6)
        XCTAssertEqual([photo.width, photo.height], [480, 640])
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [400, 533])
        XCTAssertEqual(photo.thumbnail.path.removingLastComponent(), FilePath(staging))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.thumbnail.path.string)))
        let size = try XCTUnwrap(jpegFrameSize(bytes), "the thumbnail is not a JPEG")
        XCTAssertEqual([size.width, size.height], [400, 533])
        XCTAssertNil(Data(bytes).range(of: Data("Exif\0\0".utf8)),
                     "an upright thumbnail must not carry an orientation that would turn it again")
    }

    func testAnalyse_configuredThumbnailWidth_isUsed() throws {
        let photo = try photo("barcode.jpg") { $0.thumbnailWidth = 200 }
        // 640 · 200 / 480 = 266.7, rounded.
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [200, 267])
        let size = jpegFrameSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.thumbnail.path.string))))
        XCTAssertEqual(size.map { [$0.width, $0.height] }, [200, 267])
    }

    func testAnalyse_orientationOne_keepsStoredSizeAndReadsOffsetTimeFallback() throws {
        let photo = try photo("landscape.jpg")
        XCTAssertEqual(photo.orientation, 1)
        XCTAssertEqual([photo.width, photo.height], [640, 480])
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [400, 300])
        XCTAssertEqual(photo.time.iso8601, "2026-11-20T09:00:00-05:30")
        XCTAssertEqual(photo.time.source, .exif)
        XCTAssertNil(photo.make)
        XCTAssertEqual(photo.barcodes.first?.gtin13, "4006381333931", "bars across the rows read as well")
    }

    func testAnalyse_barcodePhoto_hashAndSizeMatchTheFile() throws {
        let photo = try photo("barcode.jpg")
        let path = (try XCTUnwrap(Self.folder) as NSString).appendingPathComponent("barcode.jpg")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        XCTAssertEqual(photo.sha256, Self.hashes["barcode.jpg"])
        XCTAssertEqual(photo.byteSize, size.int64Value)
        XCTAssertEqual(photo.format, .jpeg)
        XCTAssertEqual(photo.file.relativePath, "barcode.jpg")
    }

    func testAnalyse_symbologyNotConfigured_isNotRead() throws {
        let photo = try photo("barcode.jpg") { $0.symbologies = [.qr, .code128] }
        XCTAssertEqual(photo.barcodes, [])
        XCTAssertNil(photo.quality.decode)
    }

    func testAnalyse_pngWithoutExif_fallsBackToFileTime() throws {
        let photo = try photo("front.png")
        XCTAssertEqual(photo.time.source, .fileTime)
        XCTAssertEqual(photo.time.utc, 1_700_000_000.25, accuracy: 1e-6)
        XCTAssertEqual(photo.time.iso8601, "2023-11-14T22:13:20.250Z")
        XCTAssertEqual(photo.format, .png)
        XCTAssertEqual([photo.width, photo.height, photo.orientation], [320, 240, 1])
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [320, 240], "narrower than 400: never enlarged")
        XCTAssertEqual(photo.barcodes, [])
        XCTAssertNil(photo.make)
        XCTAssertEqual(photo.sha256, Self.hashes["front.png"])
    }

    // MARK: Pixel formats other than 8-bit RGB

    func testAnalyse_transparentPNG_isFlattenedOnWhite() throws {
        let photo = try photo("rgba.png")
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [400, 300])
        // Green: 255 where transparent (white), 0 where opaque red; black would give a mean near 0.
        XCTAssertEqual(photo.quality.meanGrey, 127.5, accuracy: 2)
    }

    func testAnalyse_sixteenBitGreyPNG_isShiftedToEightBits() throws {
        let photo = try photo("grey16.png")
        XCTAssertEqual([photo.width, photo.height], [800, 600])
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [400, 300])
        XCTAssertEqual(photo.quality.meanGrey, 127.5, accuracy: 2, "a ramp over the full 16-bit range")
    }

    func testAnalyse_cmykJPEG_isConvertedToRGB() throws {
        let photo = try photo("cmyk.jpg")
        XCTAssertEqual(photo.format, .jpeg)
        XCTAssertEqual([photo.thumbnail.width, photo.thumbnail.height], [400, 300])
        // Half paper white (255), half black ink alone, which libvips' CMYK profile renders as a dark
        // grey of about 35; read as RGB without conversion the mean would be near 0 or 255.
        XCTAssertEqual(photo.quality.meanGrey, 145, accuracy: 12)
        let size = jpegFrameSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.thumbnail.path.string))))
        XCTAssertEqual(size.map { [$0.width, $0.height] }, [400, 300])
    }

    func testAnalyse_qrCode_readsTextWithoutGTIN() throws {
        let photo = try photo("qr.png")
        let reading = try XCTUnwrap(photo.barcodes.first)
        XCTAssertEqual(reading.symbology, .qr)
        XCTAssertEqual(reading.text, "https://example.com/p/42")
        XCTAssertNil(reading.gtin13)
        XCTAssertEqual(photo.quality.decode, 1)
    }

    func testAnalyse_bookWithItsPriceCode_keepsBothCodesWithTheISBNFirst() throws {
        // Read along more lines, the price code (GS1's unassigned 192 range) would otherwise speak for the photo.
        let photo = try photo("book.png")
        XCTAssertEqual(photo.barcodes.map(\.productKey), ["9784101010014", "1920193006001"], "both kept, as hits")
        XCTAssertGreaterThan(photo.barcodes[1].quality, photo.barcodes[0].quality, "the price code is the better read")
        XCTAssertEqual(photo.barcodes.first?.gtin13, "9784101010014")
    }

    // MARK: Files that are not usable photos

    func testAnalyse_truncatedJPEG_isUndecodable() throws {
        let result = try analyse("truncated.jpg")
        guard case .failure(.image(.undecodable(let why))) = result else { return XCTFail("got \(result)") }
        XCTAssertFalse(why.isEmpty)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging), [])
    }

    func testAnalyse_fileGoneBeforeItIsRead_isTransient_soItsSetWaitsInsteadOfQuarantiningNothing() throws {
        // A worker that took the set over moved it into its library after this one listed it.
        try assertRefused("listed-then-moved.jpg", .goneBeforeReading)
        XCTAssertTrue(PhotoError.goneBeforeReading.isTransient)
    }

    func testAnalyse_emptyFile_isEmpty() throws {
        try assertRefused("empty.jpg", .empty)
    }

    func testAnalyse_textNamedJPG_isNotAnImage() throws {
        try assertRefused("text.jpg", .image(.notAnImage))
    }

    func testAnalyse_pngDeclaringTooManyPixels_isRefusedBeforeDecoding() throws {
        // Only one row of data follows the header: had it been decoded, it would be undecodable.
        try assertRefused("bomb.png", .image(.tooManyPixels(width: 20000, height: 20000, limit: 100_000_000)))
    }

    func testAnalyse_maxPixels_appliesToSmallPhotosToo() throws {
        try assertRefused("front.png", .image(.tooManyPixels(width: 320, height: 240, limit: 76_799))) { $0.maxPixels = 76_799 }
    }

    func testAnalyse_maxPixels_isInclusive() throws {
        let photo = try photo("front.png") { $0.maxPixels = 320 * 240 }
        XCTAssertEqual([photo.width, photo.height], [320, 240])
    }

    func testAnalyse_symbolicLink_isNotFollowed() throws {
        try assertRefused("link.jpg", .symbolicLink)
    }

    func testAnalyse_fifo_isNotARegularFileAndDoesNotBlock() throws {
        try assertRefused("fifo.jpg", .notRegularFile(kind: "FIFO"))
    }

    func testAnalyse_fileOverMaxFileBytes_isTooLarge() throws {
        let path = (try XCTUnwrap(Self.folder) as NSString).appendingPathComponent("barcode.jpg")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        try assertRefused("barcode.jpg", .tooLarge(bytes: size.int64Value, limit: 1000)) { $0.maxFileBytes = 1000 }
    }

    // MARK: Photos already catalogued

    func testAnalyse_hashAlreadyCatalogued_isReportedWithoutDecodingOrThumbnail() throws {
        let existing = Photo(
            id: "p1", captureId: "c1", position: 0, originalName: "old.jpg", sourcePath: "s/old.jpg",
            originalPath: "originals/old.jpg", thumbPath: "thumbs/p1.jpg", thumbWidth: 400, thumbHeight: 533,
            sha256: try XCTUnwrap(Self.hashes["barcode.jpg"]), byteSize: 1, format: .jpeg, width: 480, height: 640,
            orientation: 6, make: nil, model: nil, takenAt: "2026-11-20T09:00:00.674+01:00", takenUTC: 0,
            timeSource: .exif, sharpness: 1, contrast: 1, brightness: 1, decodeConfidence: 1, quality: 1,
            rating: .excellent)
        var asked: [String] = []
        let result = try outcome("barcode.jpg", catalogued: { hash in
            asked.append(hash)
            return hash == existing.sha256 ? existing : nil
        })
        guard case .catalogued(_, let reported) = result else { return XCTFail("got \(result)") }
        XCTAssertEqual(reported, existing)
        XCTAssertEqual(asked, [existing.sha256])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging), [])
    }

    func testAnalyse_hashNotCatalogued_isAnalysed() throws {
        var asked: [String] = []
        let result = try outcome("front.png", catalogued: { asked.append($0); return nil })
        guard case .analysed = result else { return XCTFail("got \(result)") }
        XCTAssertEqual(asked, [Self.hashes["front.png"]])
    }

    // MARK: Deduplication

    func testDeduplicated_keepsBestReadingPerProductRetailFirst() {
        let weakCola = makeReading(.ean13, "0036000291452", gtin13: "0036000291452", quality: 1)
        let colaAsUPC = makeReading(.upcA, "036000291452", gtin13: "0036000291452", quality: 5)
        let qr = makeReading(.qr, "https://example.com", quality: 9)
        let tea = makeReading(.ean13, "5901234123457", gtin13: "5901234123457", quality: 2)
        XCTAssertEqual(PhotoAnalyzer.deduplicated([qr, weakCola, tea, colaAsUPC]), [colaAsUPC, tea, qr])
    }

    func testDeduplicated_aCodeThatNamesATradeItem_comesBeforeAShopsCodeOrAPriceCodeReadBetter() {
        let isbn = makeReading(.ean13, "9784101010014", gtin13: "9784101010014", quality: 3)
        let price = makeReading(.ean13, "1920193006001", gtin13: "1920193006001", quality: 40)
        let weighed = makeReading(.ean13, "2012345000001", gtin13: "2012345000001", quality: 30)
        let qr = makeReading(.qr, "https://example.com", quality: 90)
        XCTAssertEqual(PhotoAnalyzer.deduplicated([qr, price, weighed, isbn]), [isbn, price, weighed, qr])
    }
}
