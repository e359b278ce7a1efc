import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest
import SystemPackage

/// The path for small codes in large photos: the overview (shrunk on load) cannot resolve them, the
/// partial full-resolution decode of their region can.
final class FullResolutionBarcodeTests: XCTestCase {
    func testAnalyse_smallCodeInA12MegapixelPhoto_isReadFromFullResolution() throws {
        let folder = try makeTemporaryFolder()
        let staging = (folder as NSString).appendingPathComponent("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // 1.8 px per module: 0.45 px in the 1/4 overview, far too fine for ZBar there.
        let path = try largePhoto(module: 1.8, angle: 12, x: 2500, y: 1900, in: folder)
        let analyzer = try PhotoAnalyzer(config: PipelineConfig(folder: FilePath(folder)), stagingFolder: FilePath(staging))
        guard case .analysed(let photo) = analyzer.analyse(InboxFile(setName: "s", relativePath: "large.jpg",
                                                                     absolutePath: FilePath(path))) else {
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

    func testReadAll_overviewMisreadNeitherSecondOpinionDecides_isContradictedAtFullResolution() throws {
        // A 12 MP PNG of 7603465754155 at 3.9 px a module, 1 in the 1/4 overview: ZBar read
        // 2624465754155 there by 3 lines, a differently smoothed copy the same, and zxing-cpp and
        // the template reader could not tell; that misread was the photo's code. zxing-cpp reads
        // the region at full resolution, and the full-resolution pass then reads the right code.
        let (reads, trace) = try readAll(try hardPhoto("png-015"))
        XCTAssertEqual(reads.confirmed.map(\.productKey), ["7603465754155"])
        XCTAssertTrue(trace.events.contains {
            $0.outcome == "dropped" && $0.code == "2624465754155"
                && $0.because?.contains("at full resolution contradicts: zxing-cpp reads 7603465754155") == true
        }, "the overview's misread is dropped by the opinion at full resolution")
    }

    func testReadAll_weakCode128InTheOverview_isConfirmedAtFullResolution() throws {
        // A blurred Code 128 (σ 1.6 px, 3.3 px a module) in a 3264×2448 JPEG: ZBar read it in the
        // 1/2 overview by 3 lines, under what a Code 128 needs alone, and zxing-cpp read nothing
        // there, so the read was dropped and the photo gave no code (`zbarimg` reads it at full
        // resolution). zxing-cpp reads it at full resolution.
        let (reads, trace) = try readAll(try hardPhoto("blur-005"))
        XCTAssertEqual(reads.confirmed.map(\.productKey), ["LOT-A1XLS7B2"])
        XCTAssertTrue(trace.events.contains {
            $0.outcome == "kept" && $0.because?.contains("at full resolution confirms: zxing-cpp reads the same") == true
        })
    }

    /// One photo of `bench/hardset.py`'s hard set at seed 1 (30 photos a perturbation), made as
    /// that script makes it: its path.
    private func hardPhoto(_ name: String) throws -> String {
        let folder = try makeTemporaryFolder()
        return try runPython("""
            import os, sys, types
            sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
            import hardset_make
            args = types.SimpleNamespace(seed=1, per=30, nobarcode=0, out=sys.argv[2])
            job = next(job for job in hardset_make.plan(args) if job["set"] == sys.argv[3])
            _, file, _ = hardset_make.render(job)
            print(os.path.join(args.out, "inbox", file))
            """, arguments: [IngestHarness.packageRoot.path, folder, name]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func readAll(_ path: String) throws -> (PhotoBarcodes, ReadTrace) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, thumbnailWidth: 400).decode(bytes)
        XCTAssertGreaterThan(decoded.shrink, 1, "the overview is shrunk")
        let trace = ReadTrace()
        let reads = try BarcodeReader(symbologies: Set(Symbology.allCases), trace: trace)
            .readAll(overview: decoded.overview, shrink: decoded.shrink) { try decoded.fullResolution($0, from: bytes) }
        return (reads, trace)
    }
}
