import Foundation
@testable import Imaging
@testable import Pipeline
import XCTest
import TestSupport
import Catalog
import SystemPackage

/// Inputs that once crashed the process, found by `FuzzTests` and kept so they never do again
/// (docs/fuzzing.md).
final class FuzzRegressionTests: XCTestCase {
    private func analyse(_ base64: String, name: String) throws -> PhotoOutcome {
        let folder = try makeTemporaryFolder()
        let path = (folder as NSString).appendingPathComponent(name)
        try XCTUnwrap(Data(base64Encoded: base64, options: .ignoreUnknownCharacters)).write(to: URL(fileURLWithPath: path))
        // Strips 3 px tall are refused by minPixels now; these inputs must still reach the decoder.
        var config = PipelineConfig(folder: FilePath(folder))
        config.minPixels = 1
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: FilePath(folder))
        return analyzer.analyse(InboxFile(setName: "s", relativePath: name, absolutePath: FilePath(path)))
    }

    /// A mutated 120×90 JPEG whose frame header claims 56128×3 pixels. libvips 8.14 shrinks on load by
    /// rounding down: 3 / 8 = 0 rows, which failed an assertion and aborted the whole run.
    func testAnalyse_fuzzedJPEGClaiming56128x3_isRejectedNotAborted() throws {
        guard case .rejected(_, .image(.undecodable(let why))) = try analyse(Self.fuzzed56128x3, name: "fuzzed.jpg") else {
            return XCTFail("expected a rejection as corrupt")
        }
        XCTAssertTrue(why.contains("Quantization table"), why)
    }

    /// A valid 4000×3 greyscale JPEG, a strip shrunk on load to nothing by the same rounding.
    func testAnalyse_validJPEGStrip4000x3_isAnalysedAtFullSize() throws {
        guard case .analysed(let photo) = try analyse(Self.strip4000x3, name: "strip.jpg") else {
            return XCTFail("expected the strip to be analysed")
        }
        XCTAssertEqual([photo.width, photo.height], [4000, 3])
    }

    private static let fuzzed56128x3 = """
    /9j/4ABQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn
    KSopGR8tMC0oMCUoKSj/wAALCAAD20ABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF
    BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW
    V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi
    4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APMwV+UkH0U+3/6/f/69mEbiwIw+OSB075FTxKS4Vg24Z2kjPHSpYQyqv8PPucDP
    X+f5VYiXDYfcTvyCOnr/AJ/GrCK23KqwPAA9R9fxqVQ5yTuyRg8Dp04q1BGHDKg9M/lgH061x8I44QgYzkdsY5yf5VZRQSW6+npj
    v+mfyq2Ad+EXocDPJB9/0/yKSBXCjC4wcdv5/wCf5VdRTgqCocnaAMA/55//AF1YEf3W3HpuAI784z7/AOFTRJ5jll3Yc8HAzjvU
    8YHy4G1gAMY3ANMXmM1x0IVmSMMVIPGRj/OatRAnnaFReQCeMdQcdf8AP1qZVXcORntu+92wBz/n8asRqw/1QKgkksx9QDn/APXV
    hRuCMQOcHA9B2/X8KmgUrklWOCOvU8nH9c/yq2CeqId3XJbBb3/X9e1TW6EqG2npkBR/Qe/0/wAORjbLElHwoPLD1qaFBu3EsxyM
    hh0H9O9PjUFR1ZgAeT0GP/r/AP66sxE70ZtwP0744/pU8SsGG3AJ+VnPQl2546Vb2FpCDkkY4/hyOP8ACrW1XkwwyFwcZJPPbHfm
    prePy2Lufl6ZJ/z/AJFcdHFuclTwvJJGQTx/n86miU7trY2qOApzuHGB64qeIF2DjcD2bpnHpxjNWwrFhhthIOfU/wCRiplIB6b1
    ILnPHBP+fzHpViAHdk7ySOhBHf169v1qwgDOApGBxjb19uf88hbj/wDX7Lf54qlrmqf2fZs0ORcPgR/KGAwep/D9cVhRhw+EO4dg
    3XHbr/nirUS7NvLALkcdAamiVWJwwwVxuOOn+f51Yjx8pYYU8/Lk+x+g+npVmKNQpwuQOvGfmAqdEKkADkncD0Az/X/61SNJDBA0
    ly6xIvzyFuf/ANfs
    """

    private static let strip4000x3 = """
    /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn
    KSopGR8tMC0oMCUoKSj/wAALCAADD6ABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF
    BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW
    V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi
    4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
    iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
    iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
    iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
    iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
    iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiv/Z
    """
}
