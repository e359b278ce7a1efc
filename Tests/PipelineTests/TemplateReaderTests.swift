import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import Vocabulary
import XCTest

/// The template reader (issue 11): EAN-13 and UPC-A codes too blurred and too small for ZBar and
/// zxing-cpp, read by fitting each digit's blurred pattern; and its verdicts on what those two read
/// (issue 29: a UPC-E's too).
final class TemplateReaderTests: XCTestCase {
    func testRead_blurredCodeAtAboutOnePixelPerModule_readsIt() throws {
        let image = Self.drawn("5901234123457", module: 1.4, blur: 0.6)
        XCTAssertEqual(BarcodeScanner(symbologies: [.ean13]).scan(image), [], "ZBar reads it, so it proves nothing here")
        let reading = try XCTUnwrap(TemplateReader().read(image))
        XCTAssertEqual(reading.symbology, .ean13)
        XCTAssertEqual(reading.gtin13, "5901234123457")
    }

    func testRead_codeUpsideDown_readsIt() throws {
        // Turned by 180°, a row of bars is the same row reversed.
        let image = Self.drawn("0036000291452", module: 1.4, blur: 0.8)
        let turned = GreyImage(width: image.width, height: image.height) { x, y in
            image.pixels[(image.height - 1 - y) * image.width + image.width - 1 - x]
        }
        let reading = try XCTUnwrap(TemplateReader().read(turned))
        XCTAssertEqual(reading.symbology, .upcA)
        XCTAssertEqual(reading.text, "036000291452")
    }

    func testWays_codeWhoseRightHalfIsWiderThanItsLeft_readRightOnlyWithEachHalfPlacedAlone() throws {
        // Modules 3 % narrower than the mean on the left, 3 % wider on the right, as on a package
        // curved or folded at the centre: one placement of the whole code is 1.4 modules off at the
        // centre guard and fits other digits there; each half placed alone fits the code's own.
        let code = "5901234123457"
        let image = Self.drawn(code, module: 1.4, blur: 0.6, stretch: 1.06)
        let shortfall = AcceptanceRules.fitted.contradictingShortfall
        let whole = TemplateReader().ways(image)
        XCTAssertNotEqual(whole.first?.whole.decision?.code, code)
        XCTAssertNotEqual(TemplateReader.verdict(on: code, whole, contradictingShortfall: shortfall), .confirms)
        let halves = TemplateReader().ways(image, .halves)
        XCTAssertEqual(halves.first?.whole.decision?.code, code)
        XCTAssertEqual(TemplateReader.verdict(on: code, halves, contradictingShortfall: shortfall), .confirms)
    }

    func testVerdict_codeSeenAtAnAngle_contradictedOnlyWhenItFallsShortPlacedAtTheAngleToo() throws {
        // Module widths growing by a fifth across the code, as on a package photographed at an
        // angle: even widths put its middle 2.4 modules off, and fit other digits there better.
        let code = "5901234123457", misread = "5901234128452"
        let image = Self.drawn(code, module: 1.4, blur: 0.6, perspective: 0.2)
        let shortfall = AcceptanceRules.fitted.contradictingShortfall
        XCTAssertEqual(TemplateReader.verdict(on: code, TemplateReader().ways(image), contradictingShortfall: shortfall), .contradicts)
        XCTAssertEqual(TemplateReader.verdict(on: code, TemplateReader().ways(image, .halves), contradictingShortfall: shortfall),
                       .contradicts, "each half placed alone is 1.2 modules off at its middle")
        let angled = TemplateReader().ways(image, .perspective)
        XCTAssertEqual(TemplateReader.verdict(on: code, angled, contradictingShortfall: shortfall), .confirms)
        XCTAssertEqual(TemplateReader.verdict(on: misread, angled, contradictingShortfall: shortfall), .contradicts)

        let whole = PixelBox(x: 0, y: 0, width: image.width, height: image.height)
        var templates = BarcodeReader.TemplateEvidence(pixels: image, targets: [(box: whole, angle: 0)], rules: .fitted, memo: nil)
        let reading = { (code: String) in try XCTUnwrap(TemplateReader.reading(code, lines: 30, box: whole)) }
        XCTAssertNotEqual(try templates.verdict(on: reading(code)), .contradicts)
        XCTAssertEqual(try templates.verdict(on: reading(misread)), .contradicts)
    }

    func testVerdict_placeWithNoPixelsOnTheFramesEdge_isUndecidedNotAnError() throws {
        // A read on the frame's very edge (zxing-cpp's box of a code cut by it) placed the template
        // reader on a box that, clamped to the frame, holds no pixels: cutting it out threw, and
        // the photo (real: off/0215861038509_1 turned by 270°) was refused as a corrupt image.
        let image = Self.drawn("5901234123457", module: 3, blur: 0.2)
        let edge = PixelBox(x: image.width, y: 0, width: 12, height: image.height)
        var templates = BarcodeReader.TemplateEvidence(pixels: image, targets: [(box: edge, angle: 0)], rules: .fitted, memo: nil)
        let reading = try XCTUnwrap(TemplateReader.reading("5901234123457", lines: 3, box: edge))
        XCTAssertEqual(try templates.verdict(on: reading), .undecided)
    }

    func testVerdict_blurredUPCE_confirmedByTheUPCELayoutOnly() throws {
        // The UPC-E 01234565 at 1.4 px a module, blurred: placed as a UPC-E, its six patterns and
        // their parities (number system 0, check digit 5) fit best at every place.
        let image = Self.drawn(modules: Self.upcE01234565, module: 1.4, blur: 0.6)
        let shortfall = AcceptanceRules.fitted.contradictingShortfall
        let upcE = TemplateReader().ways(image, .upcE)
        XCTAssertEqual(TemplateReader.verdict(on: "0012345000065", upcE, contradictingShortfall: shortfall), .confirms)
        // Not another UPC-E: one digit changed, or the same digits in number system 1 (every
        // parity inverted).
        for other in ["0123475", "1123456"] {
            let gtin13 = "0" + GTIN.expandUPCE(other)!
            XCTAssertNotEqual(TemplateReader.verdict(on: gtin13, upcE, contradictingShortfall: shortfall), .confirms, other)
        }
        // Nor the bars placed as an EAN-13's.
        XCTAssertNotEqual(TemplateReader.verdict(on: "0012345000065", TemplateReader().ways(image), contradictingShortfall: shortfall),
                          .confirms)
    }

    func testRead_stripesAndNoise_readNothing() {
        var generator = SplitMix64(seed: 3)
        let widths = (0..<70).map { _ in Int(generator.next() % 4) + 1 }
        let edges = widths.reduce(into: [20]) { $0.append($0.last! + $1) }
        let stripes = GreyImage(width: edges.last! + 20, height: 60) { x, _ in
            let index = edges.lastIndex { $0 <= x } ?? 0
            return x < 20 || x >= edges.last! || index % 2 == 1 ? 230 : 30
        }
        XCTAssertNil(TemplateReader().read(stripes))
        let noise = GreyImage(width: 200, height: 60) { _, _ in UInt8(truncatingIfNeeded: generator.next()) }
        XCTAssertNil(TemplateReader().read(noise))
    }

    /// The fit's portable loop and its AVX2 loop give the same costs, bit for bit, on the lines
    /// the reader takes across codes drawn sharp and blurred, stretched, at an angle and reversed,
    /// and with noise: a photo's codes must not depend on the CPU that reads it.
    func testFit_portableAndAVX2Loops_giveTheSameCostsBitForBit() throws {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        try XCTSkipUnless(cpu.contains(" avx2"), "no AVX2 on this CPU: only the portable loop runs")
        var generator = SplitMix64(seed: 29)
        var fitted = 0, lines = 0
        for (code, module, blur, stretch, perspective) in [("5901234123457", 1.2, 0.8, 1.0, 0.0), ("4006381333931", 2.0, 0.5, 1.0, 0.0),
                                                           ("0012345678905", 2.6, 0.6, 1.15, 0.0), ("8712345678906", 3.1, 0.4, 1.0, 0.25)] {
            let image = Self.drawn(code, module: module, blur: blur, stretch: stretch, perspective: perspective)
            let clean = TemplateReader.darkness(image, row: 20)
            let noisy = clean.map { $0 + Float(Int(generator.next() % 41) - 20) }
            for line in [clean, noisy, noisy.reversed()] {
                let (first, last) = try XCTUnwrap(TemplateReader.extent(of: line))
                for layout in [EANLineFit.Layout.whole, .halves, .perspective, .upcE] {
                    let fast = EANLineFit(darkness: line, firstEdge: first, lastEdge: last, layout: layout, portable: false)
                    let portable = EANLineFit(darkness: line, firstEdge: first, lastEdge: last, layout: layout, portable: true)
                    let bits = { (fit: EANLineFit?) in fit.map { [$0.cost.bitPattern] + ($0.left + $0.right).map { UInt64($0.bitPattern) } } }
                    let (a, b) = (bits(fast), bits(portable))
                    XCTAssertTrue(a == b, "\(code) \(layout): the costs differ first at \(zip(a ?? [], b ?? []).enumerated().first { $1.0 != $1.1 }?.offset ?? -1)")
                    lines += 1
                    if portable != nil { fitted += 1 }
                }
            }
        }
        // The comparison covers whole searches, not only lines that fit nothing.
        XCTAssertGreaterThan(fitted, lines * 3 / 4, "\(fitted) of \(lines) lines fitted")
    }

    func testTemplateTargets_stripTooThinForTheCellGrid_isReadAlongItsLength() throws {
        // 11 px of a code's height, as a scanner or a close crop cuts it: too thin for the cell grid
        // that gives a photo's bar direction, lying or standing.
        let image = Self.drawn("5901234123457", module: 1.4, blur: 0.6)
        let lying = GreyImage(width: image.width, height: 11) { x, y in image.pixels[(15 + y) * image.width + x] }
        let standing = GreyImage(width: 11, height: image.width) { x, y in lying.pixels[x * lying.width + y] }
        for strip in [lying, standing] {
            XCTAssertNil(CellGrid(strip))
            let targets = BarcodeReader.templateTargets(in: strip, candidates: [])
            XCTAssertEqual(targets.count, 1)
            let upright = try XCTUnwrap(targets.first.map { try strip.region($0.0, angle: $0.1, scale: 1, smoothRows: 1) })
            XCTAssertEqual(TemplateReader().read(upright)?.gtin13, "5901234123457", "\(strip.width)×\(strip.height)")
        }
    }

    func testVerdict_realPhotoWithTheMisreadOfZBarAndZXing_contradictsItAndConfirmsTheCode() throws {
        // A blurred real UPC-A that ZBar, on a prepared copy, read as 4006178017785; its label says
        // 0066721017185.
        let photo = try XCTUnwrap(try RealPhotos.withCodes().first { $0.path.hasSuffix("/upca-4-14.webp") })
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.path)))
        let decoded = try PhotoDecoder(maxPixels: 100_000_000, minSide: 8, thumbnailWidth: 400).decode(bytes)
        var templates = BarcodeReader.TemplateEvidence(pixels: decoded.overview, candidates: [], rules: .fitted, memo: nil)
        let misread = try XCTUnwrap(TemplateReader.reading("4006178017785", lines: 9, box: PixelBox(x: 0, y: 0, width: 1, height: 1)))
        let code = try XCTUnwrap(TemplateReader.reading("0066721017185", lines: 9, box: PixelBox(x: 0, y: 0, width: 1, height: 1)))
        XCTAssertEqual(try templates.verdict(on: misread), .contradicts)
        XCTAssertEqual(try templates.verdict(on: code), .confirms)
    }

    func testEnds_codeTurnedInItsRegion_followTheTiltPastLinesThatMissTheEnds() throws {
        // Ends moving half a pixel a line (a code turned by about a degree), but one line lost the
        // faint guard bar and the last crossed the digits printed beside the bars.
        var extents: [(Double, Double)?] = (0..<15).map { (line: Int) -> (Double, Double)? in
            let shift = 0.5 * Double(line)
            return (40 + shift, 340 - shift)
        }
        extents[3] = (52, 338.5)
        extents[14] = (20, 380)
        let ends = try XCTUnwrap(TemplateReader.ends(extents))
        XCTAssertEqual(ends[0].0, 40, accuracy: 0.5)
        XCTAssertEqual(ends[14].0, 47, accuracy: 0.5)
        XCTAssertEqual(ends[0].1, 340, accuracy: 0.5)
        XCTAssertEqual(ends[14].1, 333, accuracy: 0.5)
    }

    func testEnds_linesThatLoseTheGuardBarOrCrossTheDigits_keepUprightEndsUpright() throws {
        // As on a real upright UPC-A (upca-4-9): every other run of lines loses the left guard bar
        // and the first digits (ends at 111), and the lowest lines cross the digits printed beside
        // the bars (ends at 29 and 26). The median of all slopes between lines made these ends a
        // tilt, and the fit slid two modules off the bars at the bottom.
        let firsts: [Double] = [111, 58, 58, 58, 112, 112, 111, 111, 111, 58, 58, 58, 29, 26, 103]
        let lasts: [Double] = [414, 414, 415, 415, 415, 416, 416, 416, 417, 417, 417, 418, 434, 374, 227]
        let ends = try XCTUnwrap(TemplateReader.ends(zip(firsts, lasts).map { Optional(($0, $1)) }))
        for end in ends { XCTAssertEqual(end.0, 58, accuracy: 0.5) }
        XCTAssertEqual(ends[0].1, 414, accuracy: 1)
        XCTAssertEqual(ends[14].1, 419, accuracy: 1)
    }

    func testAccepts_unclearPlaceOrParityOrHalvesThatDisagree_refused() {
        let clear = TemplateReader.Decision(code: "5901234123457", lines: 15, margin: 0.2, parityMargin: 0.5, cost: 0.1)
        let same = TemplateReader.Decision(code: "5901234123457", lines: 7, margin: 0.1, parityMargin: 0.3, cost: 0.1)
        XCTAssertTrue(TemplateReader.accepts(clear, same, nil))
        XCTAssertFalse(TemplateReader.accepts(clear, nil, nil), "no half alone reads it")
        var unclear = clear
        unclear.margin = 0.05
        XCTAssertFalse(TemplateReader.accepts(unclear, same, same))
        var parity = clear
        parity.parityMargin = 0.05
        XCTAssertFalse(TemplateReader.accepts(parity, same, same))
        var badCheck = clear
        badCheck.code = "5901234123458"
        XCTAssertFalse(TemplateReader.accepts(badCheck, badCheck, badCheck))
        let other = TemplateReader.Decision(code: "4006381333931", lines: 8, margin: 0.1, parityMargin: 0.3, cost: 0.1)
        XCTAssertFalse(TemplateReader.accepts(clear, same, other), "the other half reads another valid code")
    }

    /// An EAN-13 (a UPC-A with its leading 0) drawn `module` pixels per module, blurred by a
    /// Gaussian of `blur` modules, 40 px tall, with a quiet zone of 10 modules each side; the right
    /// half's modules (from the centre guard's middle) `stretch` times as wide, as on a package
    /// curved or folded there; the modules' widths growing evenly across the code by `perspective`
    /// (a fraction of `module`), as on one seen at an angle.
    static func drawn(_ code: String, module: Double, blur: Double, stretch: Double = 1, perspective: Double = 0) -> GreyImage {
        let setA = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        let setC = setA.map { String($0.map { $0 == "1" ? "0" : "1" }) }
        let setB = setC.map { String($0.reversed()) }
        let digits = code.compactMap(\.wholeNumberValue)
        let parity = TemplateReader.parities[digits[0]]
        var modules = "101"
        for place in 0..<6 { modules += (parity[place] ? setB : setA)[digits[1 + place]] }
        modules += "01010"
        for place in 0..<6 { modules += setC[digits[7 + place]] }
        modules += "101"
        return drawn(modules: modules, module: module, blur: blur, stretch: stretch, perspective: perspective)
    }

    /// The modules of the UPC-E 01234565 ("1" a dark module): number system 0, check digit 5, so
    /// the six digits' parities are even, odd, odd, even, even, odd.
    static let upcE01234565: String = {
        let setA = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        let setB = setA.map { String($0.map { $0 == "1" ? "0" : "1" }.reversed()) }
        let parities = [setB, setA, setA, setB, setB, setA]
        return "101" + zip([1, 2, 3, 4, 5, 6], parities).map { $1[$0] }.joined() + "010101"
    }()

    /// Bars drawn from `modules` ("1" a dark module), as `drawn(_:module:blur:stretch:perspective:)`
    /// draws them.
    static func drawn(modules: String, module: Double, blur: Double, stretch: Double = 1, perspective: Double = 0) -> GreyImage {
        let quiet = 10 * module, sigma = blur * module
        // Module u's edge: widths 1 − perspective / 2 at the first edge, growing evenly to
        // 1 + perspective / 2 at the 95th.
        let even = { (u: Double) in u + perspective * u * (u - 95) / 190 }
        let place = { (u: Double) in quiet + module * (u <= 47.5 ? even(u) : even(47.5) + (even(u) - even(47.5)) * stretch) }
        let bars = modules.enumerated().filter { $0.element == "1" }.map { (place(Double($0.offset)), place(Double($0.offset + 1))) }
        let width = Int((place(95) + quiet).rounded(.up))
        let phi = { (t: Double) in 0.5 * erfc(-t / 2.squareRoot()) }
        return GreyImage(width: width, height: 40) { x, _ in
            let ink = bars.reduce(0.0) { $0 + phi((Double(x) - $1.0) / sigma) - phi((Double(x) - $1.1) / sigma) }
            return UInt8(max(0, min(255, 230 - 190 * ink)).rounded())
        }
    }
}
