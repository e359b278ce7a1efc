import Foundation
import Catalog
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

/// The path for small codes in large photos: the overview (shrunk on load) cannot resolve them, the
/// partial full-resolution decode of their region can.
final class FullResolutionBarcodeTests: XCTestCase {
    func testAnalyse_smallCodeInA12MegapixelPhoto_isReadFromFullResolution() throws {
        let folder = try makeTemporaryFolder()
        let staging = (folder as NSString).appendingPathComponent("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // 1.8 px per module: 0.45 px in the 1/4 overview, far too fine for ZBar there.
        let path = try largePhoto(module: 1.8, angle: 12, x: 2500, y: 1900, in: folder)
        let analyzer = try PhotoAnalyzer(config: PipelineConfig(folder: folder), stagingFolder: staging)
        guard case .analysed(let photo) = analyzer.analyse(InboxFile(setName: "s", relativePath: "large.jpg",
                                                                     absolutePath: path)) else {
            return XCTFail("the photo must be analysed")
        }
        XCTAssertEqual(photo.barcodes.map(\.text), ["5901234123457"])
        let box = try XCTUnwrap(photo.barcodes.first?.box)
        XCTAssertTrue((2300...2900).contains(box.x) && (1700...2300).contains(box.y),
                      "the code is located in full-resolution coordinates, got \(box)")
    }

    func testRead_fullResolutionPassFails_saysWhyAndKeepsWhatTheOverviewGave() throws {
        // The failure used to be dropped without a word.
        struct RegionUnreadable: Error {}
        let folder = try makeTemporaryFolder()
        let path = try largePhoto(module: 1.8, angle: 12, x: 2500, y: 1900, in: folder)
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400)
            .decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        var failures: [String] = []
        let readings = try BarcodeReader(symbologies: Set(Symbology.allCases))
            .read(overview: decoded.overview, shrink: decoded.shrink) { _ in
                throw RegionUnreadable()
            } onPassFailed: { failures.append("\($0)") }
        XCTAssertEqual(failures, ["RegionUnreadable()"])
        XCTAssertEqual(readings, [], "the overview alone cannot read this code")
    }
}
