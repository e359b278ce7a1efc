import Foundation
import Catalog
@testable import Imaging
@testable import Pipeline
import TestSupport
import XCTest

/// Random-mutation fuzzing of the code that reads untrusted bytes: the EXIF reader (libexif), the
/// photo analyser (libvips' JPEG, PNG, WebP and TIFF loaders, ZBar, the barcode locator, the quality
/// metrics, the thumbnail) and the full-resolution JPEG region decoder (libjpeg-turbo). Bounded by
/// time, not by count: `INGEST_FUZZ_SECONDS` (default 24) is shared by the three targets, and each
/// prints how many cases it ran. `INGEST_FUZZ_SEED` repeats a run's mutations.
///
/// A crash ends the test process; the input being tried is then left in the folder printed at the
/// start (`lane-N.*`). See docs/fuzzing.md.
final class FuzzTests: XCTestCase {
    /// Valid files to mutate, by name (`seed.jpg`, `seed.exif`…), made once for the class.
    nonisolated(unsafe) private static var seeds: [String: [UInt8]] = [:]
    nonisolated(unsafe) private static var setupError: Error?

    override class func setUp() {
        super.setUp()
        do {
            let folder = try makeDetachedTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            _ = try runPython(seedScript, arguments: [folder])
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                seeds[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name))))
            }
        } catch {
            setupError = error
        }
    }

    private var seconds: Double { Double(ProcessInfo.processInfo.environment["INGEST_FUZZ_SECONDS"] ?? "") ?? 24 }
    private var baseSeed: UInt64 {
        UInt64(ProcessInfo.processInfo.environment["INGEST_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0 ... UInt64(UInt32.max))
    }

    /// Where the inputs being tried are written: memory-backed when possible, as every case writes one.
    private func scratchFolder() throws -> String {
        let folder = FileManager.default.isWritableFile(atPath: "/dev/shm")
            ? "/dev/shm/ingest-fuzz-\(UUID().uuidString.prefix(8))" : try makeDetachedTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func seeds(_ suffixes: [String]) throws -> [(name: String, bytes: [UInt8])] {
        if let error = Self.setupError { throw error }
        let found = Self.seeds.filter { name, _ in suffixes.contains { name.hasSuffix($0) } }.sorted { $0.key < $1.key }
        XCTAssertFalse(found.isEmpty, "no seeds ending in \(suffixes)")
        return found.map { ($0.key, $0.value) }
    }

    func testFuzz_mutatedExifBlocks_parseOrAreRefusedWithoutCrashing() throws {
        let seeds = try seeds([".exif"])
        let folder = try scratchFolder()
        let tally = Tally()
        let cases = fuzz("EXIF reader", seconds: seconds * 0.2, folder: folder) { lane, mutator in
            let seed = seeds[lane.pick(seeds.count)]
            let block = mutator.mutate(seed.bytes)
            lane.keep(block, as: "exif")
            guard let info = ExifInfo(block: block) else { return tally.note("nothing usable") }
            for text in [info.dateTimeOriginal, info.subSecTimeOriginal, info.offset, info.make, info.model].compactMap({ $0 })
            where text.utf8.count > 256 * 3 {
                tally.note("unexpected: a text of \(text.utf8.count) bytes from at most 256")
            }
            tally.note("parsed")
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
        tally.assertSaw(["parsed", "nothing usable"], outOf: cases)
    }

    func testFuzz_mutatedImages_areAnalysedOrRejectedWithAReasonWithoutCrashing() throws {
        let seeds = try seeds([".jpg", ".png", ".webp", ".tif"])
        let folder = try scratchFolder()
        let config = {
            var config = PipelineConfig(folder: folder)
            // Small limits keep each case quick: a mutated header may claim millions of pixels.
            config.maxPixels = 4_000_000
            config.thumbnailWidth = 64
            return config
        }()
        let staging = (folder as NSString).appendingPathComponent("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: staging)
        let tally = Tally()
        let cases = fuzz("photo analyser", seconds: seconds * 0.6, folder: folder) { lane, mutator in
            let seed = seeds[lane.pick(seeds.count)]
            let path = lane.keep(mutator.mutate(seed.bytes), as: (seed.name as NSString).pathExtension)
            switch analyzer.analyse(InboxFile(setName: "fuzz", relativePath: seed.name, absolutePath: path)) {
            case .analysed(let photo):
                unlink(photo.thumbnail.path)
                if photo.width <= 0 || photo.height <= 0 || photo.width * photo.height > config.maxPixels
                    || photo.thumbnail.width != config.thumbnailWidth {
                    tally.note("unexpected: analysed as \(photo.width)×\(photo.height), thumbnail \(photo.thumbnail.width) wide")
                } else {
                    tally.note("analysed")
                }
            case .rejected(_, let error):
                switch error {
                case .empty, .image(.notAnImage), .image(.tooManyPixels), .image(.tooFewPixels), .image(.undecodable): tally.note("rejected")
                default: tally.note("unexpected: rejected as \(error.reason)")
                }
            case .catalogued:
                tally.note("unexpected: catalogued without a catalogue")
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
        tally.assertSaw(["analysed", "rejected"], outOf: cases)
    }

    func testFuzz_mutatedJPEGRegions_decodeOrFailWithAMessageWithoutCrashing() throws {
        let seeds = try seeds([".jpg"]).compactMap { seed in jpegFrameSize(seed.bytes).map { (seed.bytes, $0) } }
        let folder = try scratchFolder()
        let tally = Tally()
        let cases = fuzz("JPEG region decoder", seconds: seconds * 0.2, folder: folder) { lane, mutator in
            let (bytes, size) = seeds[lane.pick(seeds.count)]
            let mutated = mutator.mutate(bytes)
            lane.keep(mutated, as: "jpg")
            // A rectangle inside the stored frame, as the barcode reader asks for.
            let x = lane.pick(size.width), y = lane.pick(size.height)
            let box = PixelBox(x: x, y: y, width: 1 + lane.pick(size.width - x), height: 1 + lane.pick(size.height - y))
            do {
                let (grey, origin) = try JPEGRegion.grey(mutated, box: box)
                let covers = origin.x <= box.x && origin.y <= box.y && grey.width == origin.width && grey.height == origin.height
                tally.note(covers ? "decoded" : "unexpected: \(origin) for \(box)")
            } catch ImageError.undecodable(let message) where !message.isEmpty {
                tally.note("refused")
            } catch {
                tally.note("unexpected: \(error)")
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
        tally.assertSaw(["decoded", "refused"], outOf: cases)
    }

    /// Runs `body` on two threads until `seconds` have passed; returns how many cases ran.
    private func fuzz(_ target: String, seconds: Double, folder: String, _ body: @Sendable (Lane, inout ByteMutator) -> Void) -> Int {
        let seed = baseSeed
        print("fuzz \(target): seed \(seed), inputs being tried in \(folder)")
        let deadline = Date().addingTimeInterval(seconds)
        let counts = Tally()
        DispatchQueue.concurrentPerform(iterations: 2) { number in
            let lane = Lane(folder: folder, number: number, seed: seed)
            var mutator = ByteMutator(seed: seed &+ UInt64(number) << 40)
            var cases = 0
            while Date() < deadline {
                body(lane, &mutator)
                cases += 1
            }
            counts.note("cases", times: cases)
        }
        let cases = counts.count("cases")
        print(String(format: "fuzz %@: %d cases in %.0f s, no crash", target, cases, seconds))
        return cases
    }
}

/// One fuzzing thread: where it keeps the input it is trying, and its own random picks.
private final class Lane: @unchecked Sendable {
    private let folder: String
    private let number: Int
    private var random: SplitMix64

    init(folder: String, number: Int, seed: UInt64) {
        self.folder = folder
        self.number = number
        random = SplitMix64(seed: ~seed &+ UInt64(number))
    }

    /// A number in `0 ..< bound` (0 when `bound` is not positive).
    func pick(_ bound: Int) -> Int {
        bound > 0 ? Int.random(in: 0 ..< bound, using: &random) : 0
    }

    /// Writes the input about to be tried to `lane-N.<ext>`, where a crash leaves it; returns the path.
    @discardableResult
    func keep(_ bytes: [UInt8], as ext: String) -> String {
        let path = (folder as NSString).appendingPathComponent("lane-\(number).\(ext)")
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

/// Outcomes counted across threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func note(_ outcome: String, times: Int = 1) {
        lock.lock()
        counts[outcome, default: 0] += times
        lock.unlock()
    }

    func count(_ outcome: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[outcome] ?? 0
    }

    /// Every outcome is one of `expected`, and each of them happened: the mutations neither break
    /// every input nor leave every input intact.
    func assertSaw(_ expected: [String], outOf cases: Int, file: StaticString = #filePath, line: UInt = #line) {
        lock.lock()
        defer { lock.unlock() }
        for (outcome, count) in counts where !expected.contains(outcome) {
            XCTFail("\(count) of \(cases) cases: \(outcome)", file: file, line: line)
        }
        for outcome in expected {
            XCTAssertGreaterThan(counts[outcome] ?? 0, 0, "no case was \(outcome): \(counts)", file: file, line: line)
        }
    }
}

/// Writes the seeds into the folder given as argument: small JPEGs (baseline with full EXIF, a
/// thumbnail and GPS; progressive; greyscale; 4:4:4), PNGs (with eXIf; palette; 16-bit), WebPs
/// (lossy with EXIF; lossless), TIFFs (LZW; PackBits) and bare EXIF blocks in both byte orders.
private let seedScript = #"""
import io, os, sys
import numpy as np, piexif
from PIL import Image

out = sys.argv[1]
rng = np.random.default_rng(7)
def picture(width, height):
    y, x = np.mgrid[0:height, 0:width]
    grey = (((x * 3 + y * 2) % 256) // 2 + rng.integers(0, 60, (height, width))).astype(np.uint8)
    return Image.fromarray(np.stack([grey, grey // 2 + 40, 255 - grey], axis=2), "RGB")
def save(name, image, **options):
    image.save(os.path.join(out, name), **options)

thumbnail = io.BytesIO(); picture(32, 24).save(thumbnail, "JPEG", quality=60)
exif = piexif.dump({
    "0th": {piexif.ImageIFD.Make: b"Fuzz", piexif.ImageIFD.Model: b"Seed 1", piexif.ImageIFD.Orientation: 6,
            piexif.ImageIFD.DateTime: b"2026:11:20 09:00:00"},
    "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2026:11:20 09:00:00", piexif.ExifIFD.SubSecTimeOriginal: b"250",
             piexif.ExifIFD.OffsetTimeOriginal: b"+01:00", piexif.ExifIFD.UserComment: b"ASCII\0\0\0seed"},
    "GPS": {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: ((52, 1), (30, 1), (0, 1))},
    "1st": {piexif.ImageIFD.Compression: 6}, "thumbnail": thumbnail.getvalue()})
save("seed.jpg", picture(120, 90), format="JPEG", quality=85, exif=exif)
save("seed-progressive.jpg", picture(100, 75), format="JPEG", quality=70, progressive=True)
save("seed-grey.jpg", picture(64, 48).convert("L"), format="JPEG", quality=80)
save("seed-444.jpg", picture(80, 60), format="JPEG", quality=90, subsampling=0)
save("seed.png", picture(96, 64), format="PNG", exif=exif[6:])
save("seed-palette.png", picture(72, 48).convert("P"), format="PNG")
save("seed-16bit.png", Image.fromarray((np.arange(64 * 48, dtype=np.uint16).reshape(48, 64) * 20)), format="PNG")
save("seed.webp", picture(96, 64), format="WEBP", quality=70, exif=exif)
save("seed-lossless.webp", picture(64, 48), format="WEBP", lossless=True)
save("seed-lzw.tif", picture(64, 48), format="TIFF", compression="tiff_lzw")
save("seed-packbits.tif", picture(48, 32), format="TIFF", compression="packbits")
with open(os.path.join(out, "seed-big-endian.exif"), "wb") as f:
    f.write(exif)
little = Image.Exif()
little[0x010F] = "Fuzz"; little[0x0110] = "Seed 2"; little[0x0112] = 3
with open(os.path.join(out, "seed-little-endian.exif"), "wb") as f:
    f.write(little.tobytes())
"""#
