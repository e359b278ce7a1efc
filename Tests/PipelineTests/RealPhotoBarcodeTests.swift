import Catalog
import Foundation
import Synchronization
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

/// Barcode reading on real photos of real packages (../shared/realphotos; issue 11): what is read
/// today stays read, nothing is read where there is no code, and a photo's codes do not depend on
/// the order photos are read in or on the number of workers. bench/realphotos.py reports the same
/// photos beside zbarimg and zxing-cpp.
final class RealPhotoBarcodeTests: XCTestCase {
    /// What the reader reads today (docs/recall.md); a change that reads less fails here. (75 since
    /// one decoder's reads of two copies are one witness: `barcodes/ean13-1-34`, read only by
    /// zxing-cpp on 4 and 3 lines of its ×1.5 and ×2 copies and by neither reference, is unconfirmed.)
    static let floors = ["retail": 75, "code128-1": 6, "qrcode-2": 54]

    /// Every photo with a code, then every photo without, read once in that order by two workers:
    /// the reads the tests below check, made once for all of them.
    private static let reference = Mutex<(paths: [String], reads: [[BarcodeReading]])?>(nil)

    private static func referenceReads() throws -> (paths: [String], reads: [[BarcodeReading]]) {
        try reference.withLock { cached in
            if let cached { return cached }
            let paths = try RealPhotos.withCodes().map(\.path) + RealPhotos.withoutCodes()
            let made = (paths: paths, reads: try readAll(paths, workers: 2))
            cached = made
            return made
        }
    }

    func testRead_realPhotos_readAtLeastTodaysCodes() throws {
        let photos = try RealPhotos.withCodes()
        let reads = try Self.referenceReads().reads.prefix(photos.count)
        var counts: [String: Int] = [:]
        for (photo, found) in zip(photos, reads) where found.contains(where: { photo.isRead(text: $0.text, gtin13: $0.gtin13) }) {
            counts[photo.isRetail ? "retail" : photo.group, default: 0] += 1
        }
        for (group, floor) in Self.floors {
            XCTAssertGreaterThanOrEqual(counts[group, default: 0], floor, "codes read in \(group)")
        }
    }

    func testRead_realPhotosWithoutACode_readNothing() throws {
        let reads = try Self.referenceReads().reads.dropFirst(try RealPhotos.withCodes().count)
        XCTAssertEqual(reads.count, try RealPhotos.withoutCodes().count)
        XCTAssertEqual(reads.flatMap { $0 }.map(\.text), [], "every code read on a photo without one is false")
    }

    func testReadAll_upcEOnlyZXingReadsOnce_isConfirmedByTheTemplateReadersUPCELayout() throws {
        // A UPC-E 148×62 px: only zxing-cpp reads it, once (its ×1.5 copy): one read of one
        // decoder, kept unconfirmed until the template reader judged UPC-Es. Placed as a UPC-E,
        // the bars fit the code's six patterns and parities best at every place.
        let trace = ReadTrace()
        let (photo, reads) = try Self.readAll(barcodes: "upce-2-20.webp", trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), [photo.text])
        XCTAssertTrue(trace.events.contains { $0.source == "template reader" && $0.outcome == "confirmed" && $0.code == photo.text })
    }

    func testReadAll_doubleQR_readsTheFinerCodeInsideTheOneTheOverviewRead() throws {
        // A "double QR": a QR code with modules 2.4 px wide inside one with modules twice as wide.
        // ZBar reads the outer one across the photo and not the inner, too fine for it there;
        // read again inside the outer code's box, enlarged, the inner one is read too.
        let (photo, photoBarcodes) = try Self.readAll(barcodes: "qrcode-2-16.webp", trace: nil)
        let reads = photoBarcodes.confirmed
        XCTAssertEqual(reads.count, 2, "\(reads.map(\.text))")
        XCTAssertEqual(reads.filter { photo.isRead(text: $0.text, gtin13: $0.gtin13) }.count, 1, "the inner code, once")
        XCTAssertTrue(reads.allSatisfy { $0.symbology == .qr })
        let inner = try XCTUnwrap(reads.first { photo.isRead(text: $0.text, gtin13: $0.gtin13) })
        let outer = try XCTUnwrap(reads.first { !photo.isRead(text: $0.text, gtin13: $0.gtin13) })
        XCTAssertTrue(outer.text.hasPrefix("[外側QRコード]"), outer.text)
        // Placed where it is printed: the middle quarter of the outer code (117 to 181 px of 260).
        XCTAssertTrue(outer.box.covers(inner.box) && (100...140).contains(inner.box.x) && (50...80).contains(inner.box.width),
                      "inner \(inner.box), outer \(outer.box)")
    }

    func testReadAll_printBesideACodeTheQuietZoneTestTakesForBars_zxingReadingTheSameCodeKeepsIt() throws {
        // A UPC-A on a white label on a green bottle: ZBar's box of its 86-line read spans half the
        // code, so the quiet zone test looks into the bars and the label's green edge. zxing-cpp,
        // reading around the read, finds the same code whole. (Rules that exempt a read by so many
        // lines from the test would not try it; these judge every read.)
        let trace = ReadTrace()
        var rules = AcceptanceRules.fitted
        rules.quietZoneExemptLines = nil
        let reads = try Self.readAll(off: "0075720000814_1.jpg", rules: rules, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["0075720000814"])
        XCTAssertTrue(trace.events.contains { $0.source == "zxing-cpp, around the read" && $0.outcome == "kept" },
                      "kept by zxing-cpp's read, past the quiet zone test")
    }

    func testSecondLook_zxingReadAcrossTheOverview_countsByItsLinesAsZBarsWould() throws {
        // A photo none of whose regions ZBar reads: zxing-cpp across the whole overview (1200 rows
        // high) reads its EAN-13 on every 2nd row, 38 lines: 74 pixel rows, as ZBar counts lines.
        // The reader reads it before its second look, in the region turned by 0° only
        // (`readTurnedByRightAngle`); the second look is asked here alone.
        let bytes = [UInt8](try Data(contentsOf: RealPhotos.folder.appendingPathComponent("off/3321271194050_2.jpg")))
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, minSide: 64, thumbnailWidth: 400).decode(bytes)
        let trace = ReadTrace()
        let all = Set(Symbology.allCases)
        let evidence = try BarcodeReader(symbologies: all, rules: .fitted, trace: trace)
            .secondLook(overview: decoded.overview, candidates: CellGrid(decoded.overview).map(BarcodeLocator().candidates(in:)) ?? [],
                        weak: [], scanners: Scanners(symbologies: all, shrink: decoded.shrink))
        XCTAssertEqual(evidence.accepted.map(\.gtin13), ["3321271194050"])
        XCTAssertEqual(trace.events.filter { $0.source == "zxing, copy ×1 of the overview" && $0.outcome == "read" }.map(\.lines), [74])
        // The whole reader, with rules that ask more lines of one read than it has: the region's
        // copy at its size (67 lines) and enlarged, two views, confirm it.
        var rules = AcceptanceRules.fitted
        rules.confirmedLines = 75
        let regionTrace = ReadTrace()
        XCTAssertEqual(try Self.readAll(off: "3321271194050_2.jpg", rules: rules, trace: regionTrace).confirmed.map(\.gtin13),
                       ["3321271194050"])
        XCTAssertTrue(regionTrace.events.contains { $0.source.hasSuffix("turned 0° only, zxing-cpp") && $0.outcome == "read" })
    }

    func testReadAll_codeReadOnlyInA2DRegionWhoseBarsReadNothing_isDropped() throws {
        // A weighed-goods label, its EAN-13 at 1.6 px a module between lines of print: the locator
        // finds the label as a 2-D region and the code's bars inside it. ZBar reads the 2-D region
        // as 7688928041263 on 33 lines; the code is 2609928041263. zxing-cpp reads nothing there,
        // the template reader cannot tell, and the bars read turned upright give nothing.
        let trace = ReadTrace()
        let reads = try Self.readAll(off: "2609928041263_1.jpg", rules: .fitted, trace: trace)
        XCTAssertTrue(trace.events.contains { $0.code == "7688928041263" && $0.outcome == "read" },
                      "the misread is made, so the test shows it is dropped")
        XCTAssertEqual(reads.confirmed.filter { $0.gtin13 != "2609928041263" }, [])
        XCTAssertEqual(reads.unconfirmed.filter { $0.gtin13 != "2609928041263" }, [])
        XCTAssertTrue(trace.events.contains {
            $0.code == "7688928041263" && $0.outcome == "dropped" && $0.because?.contains("the bars inside the region") == true
        })
    }

    func testReadAll_smallCodeAmongPrintReadOnce_isConfirmedByTheTemplateReaderWhereItWasRead() throws {
        // A chicken pack's weighed-goods label: its EAN-13 at 1.4 px a module lies among print, and
        // the locator finds no region for it. zxing-cpp reads it across the overview on 10 lines
        // (too few to count alone); the template reader, fitting the digits along those lines,
        // finds the same patterns.
        let trace = ReadTrace()
        let reads = try Self.readAll(off: "2424503026448_1.jpg", rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["2424503026448"])
        XCTAssertTrue(trace.events.contains {
            $0.source == "template reader" && $0.outcome == "confirmed" && $0.because?.hasSuffix("where it was read") == true
        })
    }

    func testReadAll_curvedCodeReadByManyLinesWithAHalfBox_isNotTakenForAPart() throws {
        // A label curved round a pack: ZBar reads its EAN-13 on 23 lines, but its box spans only
        // the upper half of the code (its lines finished decoding at the centre guard), so the
        // bars of the lower half lie beside the box's end. zxing-cpp reads nothing there.
        let trace = ReadTrace()
        let reads = try Self.readAll(off: "3538280842593_2.jpg", rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["3538280842593"])
        XCTAssertFalse(trace.events.contains { $0.outcome == "dropped" })
    }

    func testReadAll_codeCutIntoPartsBySingleEdgeCells_isReadAcrossItsWholeExtent() throws {
        // A blurred EAN-13 along a carton's edge, its widest bars a cell and a half in the overview: rows
        // of cells holding one edge each cut it into parts, and the largest part's box left the
        // last quarter of the code out. ZBar reads it on the box of its whole extent.
        let reads = try Self.readAll(off: "4311501625217_4.jpg", rules: .fitted, trace: nil)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["4311501625217"])
    }

    func testReadAll_codeTiltedInItsRegion_isReadTurnedByARightAngleOnlyAndConfirmedByAnEnlargedCopy() throws {
        // A close-up whose bars stand 5° off the upright in the region the locator found. Turned
        // by 0° only (no pixel resampled across the bars), zxing-cpp reads it at its size, and
        // again on the copy enlarged as the region's others are.
        let trace = ReadTrace()
        let reads = try Self.readAll(barcodes: "ean13-1-10.webp", trace: trace).reads
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["8480010001136"])
        let turned = trace.events.filter { $0.source.contains("turned 0° only") && $0.code == "8480010001136" }
        XCTAssertTrue(turned.contains { $0.source.hasSuffix("only, zxing-cpp") && $0.outcome == "read" }, "\(turned)")
        XCTAssertTrue(turned.contains { $0.source.contains("only ×") && $0.outcome == "read" }, "\(turned)")
    }

    func testReadAll_curvedCodeReadTurnedByARightAngleOnly_isConfirmedByTheCopySmoothedAlongItsBars() throws {
        // An EAN-13 on its end on a curved tub, 12° off the right angle: no upright copy reads, and
        // zxing-cpp reads the region turned by 90° only, at its size. Enlarged, the curved bars
        // blur apart and neither decoder reads it; smoothed along its bars (over 5 rows) at its
        // size, zxing-cpp reads it again, and that second copy confirms the first read.
        let trace = ReadTrace()
        let reads = try Self.readAll(off: "8588005778190_2.jpg", rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["8588005778190"])
        let code = trace.events.filter { $0.code == "8588005778190" && $0.outcome == "read" }
        XCTAssertTrue(code.contains { $0.source.hasSuffix("turned 90° only, zxing-cpp") }, "\(code)")
        XCTAssertTrue(code.contains { $0.source.hasSuffix("only, smoothed over \(BarcodeReader.confirmingRows) rows, zxing-cpp") },
                      "\(code)")
        XCTAssertFalse(code.contains { $0.source.contains("only ×") }, "the enlarged copy reads it now: \(code)")
    }

    func testReadAll_readTurnedByARightAngleOnlyThatAnEnlargedCopyReadsAsAnotherCode_isDropped() throws {
        // Not a real photo: bench/hardset.py's `jpeg-004` at seed 3 (a photo of `bench/fit_rules.py`'s
        // hard set), an EAN-13 saved at a low JPEG quality. zxing-cpp reads its region turned by 0°
        // only as 6712987155010, and again on the copy smoothed along its bars (the JPEG artefacts
        // run along them too); the enlarged copy reads the code printed, 8710907755010. The smoothed
        // copy confirms only where the enlarged one reads no other code: the as-is read is dropped,
        // and the code printed is read.
        let folder = try makeTemporaryFolder()
        let file = try runPython("""
            import argparse, os, sys
            sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
            import hardset_make
            jobs = hardset_make.plan(argparse.Namespace(seed=3, per=8, nobarcode=0, out=sys.argv[2]))
            print(hardset_make.render(next(job for job in jobs if job["set"] == "jpeg-004"))[1], end="")
            """, arguments: [IngestHarness.packageRoot.path, folder])
        let trace = ReadTrace()
        let reads = try Self.readAll(URL(fileURLWithPath: folder).appendingPathComponent("inbox/\(file)"), minSide: 64,
                                     rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["8710907755010"])
        let misread = trace.events.filter { $0.code == "6712987155010" && $0.source.contains("turned 0° only") }
        XCTAssertTrue(misread.contains { $0.source.hasSuffix("only, smoothed over 5 rows, zxing-cpp") && $0.outcome == "read" },
                      "the smoothed copy repeats the misread: \(misread)")
        XCTAssertTrue(misread.contains {
            $0.outcome == "dropped" && $0.because == "only the copy smoothed along its bars read it again, and the enlarged copy read another code"
        }, "\(misread)")
    }

    func testReadAll_readTurnedByARightAngleOnlyThatTheEnlargedCopyReadsToo_standsBesideAnotherDecodersMisread() throws {
        // `ean13-extension-1-38` with a warm cast (green ×0.75, blue ×0.5), as `bench/perturbed.py
        // --ways other` makes it (JPEG quality 92): zxing-cpp reads the region turned by 0° only, and again
        // on the enlarged copy (48 lines), where ZBar misreads it (7 lines). The enlarged copy reads
        // it, so ZBar's other code there does not count against it; a first rule that let any other
        // code of any copy drop the read gave ZBar's misread instead.
        let photo = try XCTUnwrap(try RealPhotos.withCodes().first { $0.path.hasSuffix("/ean13-extension-1-38.webp") })
        let trace = ReadTrace()
        let reads = try Self.readAll(try otherCopy("warm", of: photo.path), minSide: 8, rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["9780201752847"])
        XCTAssertTrue(trace.events.contains {
            $0.code == "9780201752847" && $0.source.hasSuffix("turned 0° only, zxing-cpp") && $0.outcome == "read"
        })
    }

    func testReadAll_overviewReadThatZXingReadsOnlyOnTheCodesWholeExtent_isConfirmedThere() throws {
        // `off/3457040288764_1` with a 5-px motion blur (`bench/perturbed.py --ways other`): ZBar
        // reads the code on 10 lines of the overview; zxing-cpp reads nothing in the read's
        // surroundings, but the same code, and no other, on its whole extent, where the quiet zone
        // test asks it. That is the second opinion the read needs too; it was left unconfirmed.
        let photo = RealPhotos.folder.appendingPathComponent("off/3457040288764_1.jpg").path
        let trace = ReadTrace()
        let reads = try Self.readAll(try otherCopy("motion5", of: photo), minSide: 64, rules: .fitted, trace: trace)
        XCTAssertEqual(reads.confirmed.map(\.gtin13), ["3457040288764"])
        XCTAssertTrue(trace.events.contains {
            $0.step == "overview" && $0.code == "3457040288764" && $0.outcome == "kept"
                && $0.because?.hasSuffix("second opinion confirms: zxing-cpp reads the same") == true
        }, "\(trace.events.filter { $0.code == "3457040288764" })")
    }

    /// A copy of the photo at `path` made the way `way` of `bench/perturbed.py --ways other`
    /// (`perturbed.other_copies`), saved as JPEG at that way's quality.
    func otherCopy(_ way: String, of path: String) throws -> URL {
        let copy = try makeTemporaryFolder() + "/\(way).jpg"
        _ = try runPython("""
            import os, sys
            sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
            import perturbed
            from PIL import Image
            image = Image.open(sys.argv[2]).convert("RGB")
            _, made, quality = next(copy for copy in perturbed.other_copies(image) if copy[0] == sys.argv[4])
            made.save(sys.argv[3], quality=quality)
            """, arguments: [IngestHarness.packageRoot.path, path, copy, way])
        return URL(fileURLWithPath: copy)
    }

    func testReadAll_code128WithFNC4Enlarged_zxingsExtendedTextConfirmsZBarsAndIsGiven() throws {
        // A Code 128 whose ó are FNC4 and s: ZBar reads "ssss1234ssabszz", zxing-cpp the code as it
        // is. Enlarged ×1.4 (bench/perturbed.py's copy, here made in memory), zxing-cpp reads it
        // only enlarged again: its text, a read of the same code, had contradicted ZBar's read, and
        // ZBar's text was given.
        let photo = try XCTUnwrap(try RealPhotos.withCodes().first { $0.path.hasSuffix("/code128-1-6.png") })
        let overview = try XCTUnwrap(try Self.decoded(photo.path)).photo.overview
        let enlarged = try overview.region(PixelBox(x: 0, y: 0, width: overview.width, height: overview.height),
                                           angle: 0, scale: 1.4, smoothRows: 1)
        let trace = ReadTrace()
        let reads = try BarcodeReader(symbologies: Set(Symbology.allCases), rules: .fitted, trace: trace)
            .readAll(overview: enlarged, shrink: 1) { box in
                let inside = box.clamped(width: enlarged.width, height: enlarged.height)
                return (enlarged.cropped(to: inside), inside)
            }
        XCTAssertEqual(reads.confirmed.map(\.text), ["óóóó1234óóabózz"])
        XCTAssertFalse(trace.events.contains { $0.because?.contains("zxing-cpp reads óóóó") == true }, "no contradiction")
    }

    /// One photo of `barcodes/` (close-ups, some 11 px tall), read with the fitted rules as
    /// `bench/realphotos.py` has `ingest` read it (`minPixels` 8).
    static func readAll(barcodes file: String, trace: ReadTrace?) throws -> (photo: RealPhotos.Photo, reads: PhotoBarcodes) {
        let photo = try XCTUnwrap(try RealPhotos.withCodes().first { $0.path.hasSuffix("/\(file)") })
        return (photo, try readAll(URL(fileURLWithPath: photo.path), minSide: 8, rules: .fitted, trace: trace))
    }

    /// One photo of `off/` (whole photos of groceries), read with `rules` as `ingest` reads it.
    static func readAll(off file: String, rules: AcceptanceRules, trace: ReadTrace?) throws -> PhotoBarcodes {
        try readAll(RealPhotos.folder.appendingPathComponent("off/\(file)"), minSide: 64, rules: rules, trace: trace)
    }

    /// The photo at `url` decoded (photos with a side under `minSide` refused) and read with `rules`,
    /// every symbology, as `ingest` reads it.
    static func readAll(_ url: URL, minSide: Int, rules: AcceptanceRules, trace: ReadTrace?) throws -> PhotoBarcodes {
        let bytes = [UInt8](try Data(contentsOf: url))
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, minSide: minSide, thumbnailWidth: 400).decode(bytes)
        return try BarcodeReader(symbologies: Set(Symbology.allCases), rules: rules, trace: trace)
            .readAll(overview: decoded.overview, shrink: decoded.shrink) { try decoded.fullResolution($0, from: bytes) }
    }

    func testRead_sameRealPhotosInAnyOrderWithOneOrTwoWorkers_giveTheSameCodes() throws {
        // The reference reads (in order, two workers) against two shuffled orders, read by one
        // worker and by two: ZBar scanners pooled across photos once made one read in ~90 depend on
        // the photo read before it.
        let (paths, reference) = try Self.referenceReads()
        var generator = SplitMix64(seed: 11)
        for workers in [1, 2] {
            let order = Array(paths.indices).shuffled(using: &generator)
            let shuffled = try Self.readAll(order.map { paths[$0] }, workers: workers)
            for (position, index) in order.enumerated() where shuffled[position] != reference[index] {
                XCTFail("\(paths[index]): \(shuffled[position].map(\.text)) read shuffled by \(workers), "
                    + "\(reference[index].map(\.text)) in order")
            }
        }
    }

    /// Each photo's reads, in the order of `paths`, read by `workers` threads sharing one reader
    /// as the pipeline's workers do; photos decoded as `PhotoAnalyzer` decodes them.
    static func readAll(_ paths: [String], workers: Int) throws -> [[BarcodeReading]] {
        let reader = BarcodeReader(symbologies: Set(Symbology.allCases))
        return try readAll(paths, workers: workers) { try read($0, with: reader) }
    }

    /// `read` of each of `paths`, in their order, by `workers` threads taking the next path in turn.
    static func readAll(_ paths: [String], workers: Int,
                        _ read: @escaping @Sendable (String) throws -> [BarcodeReading]) throws -> [[BarcodeReading]] {
        let results = Mutex<[Int: Result<[BarcodeReading], any Error>]>([:])
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < paths.count else { return }
                let result = Result { try read(paths[index]) }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { all in try paths.indices.map { try all[$0]!.get() } }
    }

    /// One photo's reads; none for an image too small to be a photo (`nobarcode/` holds a 1×1 one),
    /// which `ingest` quarantines.
    static func read(_ path: String, with reader: BarcodeReader) throws -> [BarcodeReading] {
        guard let (bytes, decoded) = try Self.decoded(path) else { return [] }
        return try reader.read(overview: decoded.overview, shrink: decoded.shrink) { try decoded.fullResolution($0, from: bytes) }
    }

    /// The photo at `path` decoded as `PhotoAnalyzer` decodes it, and its bytes; nil for an image
    /// too small to be a photo, which `ingest` quarantines. `minSide` 8: the photos of `barcodes/`
    /// are crops of codes out of photos, some 11 px tall.
    static func decoded(_ path: String, minSide: Int = 8) throws -> (bytes: [UInt8], photo: DecodedPhoto)? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        do {
            return (bytes, try PhotoDecoder(maxPixels: 100_000_000, minSide: minSide, thumbnailWidth: 400).decode(bytes))
        } catch .tooFewPixels {
            return nil
        }
    }
}
