import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

/// A phone stores a photo as its sensor lay: held upright, the pixels lie turned by a right angle
/// (the EXIF orientation says so), and upside down they are turned twice. ingest reads the stored
/// pixels, so what it reads must not depend on which way round they lie. Each real photo of
/// ../shared/realphotos/barcodes is read turned by one, two and three right angles, its pixels
/// turned exactly, and compared with the photo read as it is (`RealPhotoBarcodeTests`).
final class RealPhotoTurnTests: XCTestCase {
    /// What the reader reads today on the photos turned, each way (upright: 75 retail codes, see
    /// `RealPhotoBarcodeTests.floors`). A change that reads less fails here.
    static let floors = ["retail": 73, "code128-1": 6, "qrcode-2": 54]

    func testRead_realPhotosTurnedByRightAngles_readTheirCodesAndNoOther() throws {
        let photos = try RealPhotos.withCodes()
        // A photo may hold another code beside the one it is of (a QR code around a finer one).
        let upright = try Self.read(photos.map(\.path), turnedBy: 0)
        for quarterTurns in 1...3 {
            let reads = try Self.read(photos.map(\.path), turnedBy: quarterTurns)
            var counts: [String: Int] = [:]
            for (photo, (found, asItIs)) in zip(photos, zip(reads, upright)) {
                let wrong = found.filter { reading in
                    !photo.isRead(text: reading.text, gtin13: reading.gtin13) && !asItIs.contains { $0.productKey == reading.productKey }
                }
                XCTAssertEqual(wrong.map(\.text), [], "\(photo.path) turned by \(quarterTurns * 90)°: a code it does not hold")
                if found.contains(where: { photo.isRead(text: $0.text, gtin13: $0.gtin13) }) { counts[photo.isRetail ? "retail" : photo.group, default: 0] += 1 }
            }
            for (group, floor) in Self.floors {
                XCTAssertGreaterThanOrEqual(counts[group, default: 0], floor, "codes read in \(group), turned by \(quarterTurns * 90)°")
            }
        }
    }

    func testRead_realPhotosWithoutACodeTurnedByRightAngles_readNothing() throws {
        let paths = try RealPhotos.withoutCodes()
        for quarterTurns in 1...3 {
            XCTAssertEqual(try Self.read(paths, turnedBy: quarterTurns).flatMap { $0 }.map(\.text), [],
                           "turned by \(quarterTurns * 90)°: every code read on a photo without one is false")
        }
    }

    func testReadAll_damagedUPCAMisreadByBothDecodersWhereZXingAlsoReadsTheRightCode_isNotKeptTurned() throws {
        // upca-4-2: ZBar and zxing-cpp share a misread of a damaged UPC-A (9074932437075), ZBar on
        // 16 lines upright, where the template reader overrules the two. Turned by 270°, ZBar reads
        // it on 23 lines, which alone spared it the template reader's verdict: the misread was
        // kept. zxing-cpp reads the right code around it, so the two do not agree there.
        let photo = try XCTUnwrap(try RealPhotos.withCodes().first { $0.path.hasSuffix("/upca-4-2.webp") })
        for quarterTurns in 0...3 {
            let reads = try Self.read([photo.path], turnedBy: quarterTurns)[0]
            XCTAssertFalse(reads.map(\.text).contains("9074932437075"), "turned by \(quarterTurns * 90)°: \(reads.map(\.text))")
        }
    }

    /// Each photo's reads (as `ingest` reads them, with every symbology), its decoded pixels turned
    /// clockwise by `quarterTurns` right angles first (the overview, and the full-resolution pixels
    /// of a photo shrunk for its overview).
    static func read(_ paths: [String], turnedBy quarterTurns: Int, minSide: Int = 8) throws -> [[BarcodeReading]] {
        let reader = BarcodeReader(symbologies: Set(Symbology.allCases))
        return try RealPhotoBarcodeTests.readAll(paths, workers: 2) { path in
            guard let (bytes, decoded) = try RealPhotoBarcodeTests.decoded(path, minSide: minSide) else { return [] }
            // A shrunk photo's full-resolution pixels, turned too, for the regions read at full resolution.
            let frame = PixelBox(x: 0, y: 0, width: decoded.header.width, height: decoded.header.height)
            let full = decoded.shrink == 1 ? nil
                : try decoded.fullResolution(frame, from: bytes).pixels.turned(quarterTurns: quarterTurns)
            return try reader.read(overview: decoded.overview.turned(quarterTurns: quarterTurns), shrink: decoded.shrink) { box in
                guard let full else { throw ImageError.undecodable("a photo read whole has no full-resolution pass") }
                let inside = box.clamped(width: full.width, height: full.height)
                return (full.cropped(to: inside), inside)
            }
        }
    }
}
