import Foundation
@testable import Imaging
@testable import Pipeline
import TestSupport
import XCTest
import Vocabulary
import Catalog
import SystemPackage

/// Random-mutation fuzzing of the code that reads untrusted bytes: the EXIF reader (libexif), the
/// photo analyser (libvips' JPEG, PNG, WebP and TIFF loaders, JPEG shrink-on-load, ZBar, the barcode
/// locator, the quality metrics, the thumbnail) and the full-resolution JPEG region decoder
/// (libjpeg-turbo). Bounded by time, not by count: `INGEST_FUZZ_SECONDS` (default 24) is shared by
/// the three targets, and each prints how many cases it ran.
///
/// Each target spends half its time on a fixed seed (the same cases every run) and half on a random
/// one (new cases every run), and prints both; `INGEST_FUZZ_SEED` runs that one seed instead, so a
/// run's cases come back in the same order.
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

    /// The seed every run without `INGEST_FUZZ_SEED` starts with.
    static let fixedSeed: UInt64 = 20_261_123

    private var seconds: Double { Double(ProcessInfo.processInfo.environment["INGEST_FUZZ_SECONDS"] ?? "") ?? 24 }

    /// `INGEST_FUZZ_SEED` alone when it is set; else the fixed seed and a random one.
    private var runSeeds: [UInt64] {
        if let seed = UInt64(ProcessInfo.processInfo.environment["INGEST_FUZZ_SEED"] ?? "") { return [seed] }
        return [Self.fixedSeed, UInt64.random(in: 0 ... UInt64(UInt32.max))]
    }

    /// Where the inputs being tried are written: memory-backed when possible, as every case writes one.
    private func scratchFolder() throws -> String {
        let folder = FileManager.default.isWritableFile(atPath: "/dev/shm")
            ? "/dev/shm/ingest-fuzz-\(UUID().uuidString.prefix(8))" : try makeDetachedTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func seeds(_ suffixes: [String]) throws -> [Seed] {
        if let error = Self.setupError { throw error }
        let found = Self.seeds.filter { name, _ in suffixes.contains { name.hasSuffix($0) } }.sorted { $0.key < $1.key }
        XCTAssertFalse(found.isEmpty, "no seeds ending in \(suffixes)")
        return found.map { Seed(name: $0.key, bytes: $0.value) }
    }

    func testFuzz_mutatedExifBlocks_parseOrAreRefusedWithoutCrashing() throws {
        let seeds = try seeds([".exif"])
        let folder = try scratchFolder()
        let tally = Tally()
        let cases = fuzz("EXIF reader", seconds: seconds * 0.2, folder: folder,
                         until: ["parsed", "nothing usable"], in: tally) { lane, mutator in
            let seed = lane.pick(seeds)
            let block = mutator.mutate(seed.bytes)
            lane.keep(block, as: "exif")
            guard let info = ExifInfo(block: block) else { return tally.note("nothing usable") }
            for text in [info.dateTimeOriginal, info.subSecTimeOriginal, info.offset, info.make, info.model].compactMap({ $0 })
            where text.utf8.count > 256 * 3 {
                tally.note("unexpected: a text of \(text.utf8.count) bytes from at most 256", in: lane)
            }
            tally.note("parsed")
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
    }

    func testFuzz_mutatedImages_areAnalysedOrRejectedWithAReasonWithoutCrashing() throws {
        let seeds = try seeds([".jpg", ".png", ".webp", ".tif"])
        let folder = try scratchFolder()
        // The defaults, maxPixels too: a mutated header may claim up to that many pixels, and the
        // large seeds take the JPEG shrink-on-load path as real photos do. All but minPixels: the
        // 1×N and N×1 seeds must reach the decoder, not be refused from their header as too small.
        let config = { () -> PipelineConfig in
            var config = PipelineConfig(folder: FilePath(folder))
            config.minPixels = 1
            return config
        }()
        let staging = (folder as NSString).appendingPathComponent("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let analyzer = try PhotoAnalyzer(config: config, stagingFolder: FilePath(staging))
        let tally = Tally()
        let cases = fuzz("photo analyser", seconds: seconds * 0.6, folder: folder,
                         until: ["analysed", "rejected", "large JPEG analysed"], in: tally) { lane, mutator in
            let seed = lane.pick(seeds)
            let path = lane.keep(mutator.mutate(seed.bytes), as: (seed.name as NSString).pathExtension)
            switch analyzer.analyse(InboxFile(setName: "fuzz", relativePath: seed.name, absolutePath: FilePath(path))) {
            case .analysed(let photo):
                unlink(photo.thumbnail.path.string)
                // As wide as configured, or the photo's own width when narrower: never enlarged.
                let thumbnailWidths = [min(config.thumbnailWidth, photo.width)]
                if photo.width <= 0 || photo.height <= 0 || photo.width * photo.height > config.maxPixels
                    || !thumbnailWidths.contains(photo.thumbnail.width) || photo.thumbnail.height <= 0 {
                    tally.note("unexpected: analysed as \(photo.width)×\(photo.height), thumbnail "
                        + "\(photo.thumbnail.width)×\(photo.thumbnail.height)", in: lane)
                } else if seed.isLarge, photo.format == .jpeg {
                    // 2000 px or more on the long edge: decoded with shrink-on-load.
                    tally.note("analysed")
                    tally.note("large JPEG analysed")
                } else {
                    tally.note("analysed")
                }
            case .rejected(_, let error):
                switch error {
                case .image(.libraryFailed): tally.note("unexpected: rejected as \(error.reason)", in: lane)
                case .empty, .image: tally.note("rejected")
                default: tally.note("unexpected: rejected as \(error.reason)", in: lane)
                }
            case .catalogued:
                tally.note("unexpected: catalogued without a catalogue", in: lane)
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
    }

    func testFuzz_mutatedJPEGRegions_decodeOrFailWithAMessageWithoutCrashing() throws {
        let seeds = try seeds([".jpg"]).filter { jpegFrameSize($0.bytes) != nil }
        let folder = try scratchFolder()
        let tally = Tally()
        let cases = fuzz("JPEG region decoder", seconds: seconds * 0.2, folder: folder,
                         until: ["decoded", "refused"], in: tally) { lane, mutator in
            let seed = lane.pick(seeds)
            guard let size = jpegFrameSize(seed.bytes) else { return }
            let mutated = mutator.mutate(seed.bytes)
            lane.keep(mutated, as: "jpg")
            // A rectangle inside the stored frame, as the barcode reader asks for.
            let x = lane.pick(size.width), y = lane.pick(size.height)
            let box = PixelBox(x: x, y: y, width: 1 + lane.pick(size.width - x), height: 1 + lane.pick(size.height - y))
            do {
                let (grey, origin) = try JPEGRegion.grey(mutated, box: box)
                let covers = origin.x <= box.x && origin.y <= box.y && grey.width == origin.width && grey.height == origin.height
                if covers { tally.note("decoded") } else { tally.note("unexpected: \(origin) for \(box)", in: lane) }
            } catch ImageError.undecodable(let message) where !message.isEmpty {
                tally.note("refused")
            } catch {
                tally.note("unexpected: \(error)", in: lane)
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        XCTAssertGreaterThan(cases, 0)
    }

    /// Runs `body` on two threads for `seconds`, shared equally by the run's seeds, then checks that
    /// every outcome `tally` counted is one of `expected` and that each of them came; returns how
    /// many cases ran.
    ///
    /// A run bounded by time alone leaves that last check to chance: the analyser's cases cost
    /// ~0.3 s each, so the default 14 s gives ~80 of them, ~3 of them large JPEGs that are still
    /// decodable after their mutation, and often none under the sanitizers. The last seed's share
    /// therefore goes on, for up to `seconds` more, until each expected outcome has come; a target
    /// whose mutations never reach one still fails.
    private func fuzz(_ target: String, seconds: Double, folder: String, until expected: [String], in tally: Tally,
                      file: StaticString = #filePath, line: UInt = #line,
                      _ body: @Sendable (Lane, inout ByteMutator) -> Void) -> Int {
        let seeds = runSeeds
        let counts = Tally()
        let started = Date()
        for (index, seed) in seeds.enumerated() {
            let share = seconds / Double(seeds.count)
            print("fuzz \(target): seed \(seed) for \(Int(share.rounded())) s (replay: INGEST_FUZZ_SEED=\(seed)), "
                + "inputs being tried in \(folder)")
            let deadline = Date().addingTimeInterval(share)
            let overtime = index == seeds.count - 1 ? deadline.addingTimeInterval(seconds) : deadline
            DispatchQueue.concurrentPerform(iterations: 2) { number in
                let lane = Lane(folder: folder, number: number, seed: seed)
                var mutator = ByteMutator(seed: seed &+ UInt64(number) << 40)
                while Date() < deadline || (Date() < overtime && !tally.sawAll(expected)) {
                    lane.startCase()
                    body(lane, &mutator)
                }
                counts.note("cases", times: lane.cases)
            }
        }
        let cases = counts.count("cases")
        print(String(format: "fuzz %@: %d cases in %.0f s, no crash", target, cases, Date().timeIntervalSince(started)))
        tally.assertSaw(expected, outOf: cases, file: file, line: line)
        return cases
    }
}

/// A valid file to mutate.
private struct Seed {
    var name: String
    var bytes: [UInt8]

    /// Seeds of thousands of pixels a side (`large-…`) cost ~50 ms a case, the others ~2 ms.
    var isLarge: Bool { name.hasPrefix("large-") }
}

/// One fuzzing thread: where it keeps the input it is trying, its own random picks, and which case
/// of which seed it is on, so a failure names what replays it.
private final class Lane: @unchecked Sendable {
    private let folder: String
    let number: Int
    let seed: UInt64
    private(set) var cases = 0
    private var random: SplitMix64

    init(folder: String, number: Int, seed: UInt64) {
        self.folder = folder
        self.number = number
        self.seed = seed
        random = SplitMix64(seed: ~seed &+ UInt64(number))
    }

    func startCase() {
        cases += 1
    }

    /// A number in `0 ..< bound` (0 when `bound` is not positive).
    func pick(_ bound: Int) -> Int {
        bound > 0 ? Int.random(in: 0 ..< bound, using: &random) : 0
    }

    /// One of `seeds`: a large one in one case of eight when there are any, so that they get a fair
    /// share of the time without crowding out the many cheap small cases.
    func pick(_ seeds: [Seed]) -> Seed {
        let large = seeds.filter(\.isLarge), small = seeds.filter { !$0.isLarge }
        let pool = !large.isEmpty && (small.isEmpty || pick(8) == 0) ? large : small
        return pool[pick(pool.count)]
    }

    /// Writes the input about to be tried to `lane-N.<ext>`, where a crash leaves it; returns the path.
    @discardableResult
    func keep(_ bytes: [UInt8], as ext: String) -> String {
        let path = (folder as NSString).appendingPathComponent("lane-\(number).\(ext)")
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Where this case is: enough to find it again with `INGEST_FUZZ_SEED`.
    var place: String { "seed \(seed), lane \(number), case \(cases)" }
}

/// Outcomes counted across threads, with the first case of each unexpected one.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var firstCase: [String: String] = [:]

    func note(_ outcome: String, times: Int = 1) {
        lock.lock()
        counts[outcome, default: 0] += times
        lock.unlock()
    }

    /// Counts an outcome of `lane`'s current case and remembers the first case it came from.
    func note(_ outcome: String, in lane: Lane) {
        lock.lock()
        counts[outcome, default: 0] += 1
        if firstCase[outcome] == nil { firstCase[outcome] = lane.place }
        lock.unlock()
    }

    /// Whether each of `outcomes` has come at least once.
    func sawAll(_ outcomes: [String]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return outcomes.allSatisfy { counts[$0, default: 0] > 0 }
    }

    func count(_ outcome: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[outcome] ?? 0
    }

    /// Every outcome is one of `expected`, and each of them happened: the mutations neither break
    /// every input nor leave every input intact. Prints how often each outcome came.
    func assertSaw(_ expected: [String], outOf cases: Int, file: StaticString = #filePath, line: UInt = #line) {
        lock.lock()
        defer { lock.unlock() }
        print("fuzz outcomes: " + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for (outcome, count) in counts where !expected.contains(outcome) {
            XCTFail("\(count) of \(cases) cases: \(outcome) (first: \(firstCase[outcome] ?? "?"))", file: file, line: line)
        }
        for outcome in expected {
            XCTAssertGreaterThan(counts[outcome] ?? 0, 0, "no case was \(outcome): \(counts)", file: file, line: line)
        }
    }
}

/// Writes the seeds into the folder given as argument. Small ones (64 to 120 px a side): JPEGs
/// (baseline with full EXIF, a thumbnail and GPS; progressive; greyscale; 4:4:4), PNGs (with eXIf;
/// palette; 16-bit), WebPs (lossy with EXIF; lossless), TIFFs (LZW; PackBits) and bare EXIF blocks in
/// both byte orders. Extreme shapes: strips of one or two pixels by 4000 as JPEG, PNG, WebP and TIFF.
/// Large JPEGs (`large-…`): 4000×3000 with EXIF (orientation 6) and a small EAN-13 that only the
/// full-resolution pass reads, and a progressive 2000×1500 — shrunk on load by 4 and by 2.
private let seedScript = #"""
import io, os, sys
import barcode, numpy as np, piexif
from PIL import Image

out = sys.argv[1]
rng = np.random.default_rng(7)
def picture(width, height, noise=60):
    y, x = np.mgrid[0:height, 0:width]
    grey = (((x * 3 + y * 2) % 256) // 2 + rng.integers(0, noise, (height, width))).astype(np.uint8)
    return Image.fromarray(np.stack([grey, grey // 2 + 40, 255 - grey], axis=2), "RGB")
def save(name, image, **options):
    image.save(os.path.join(out, name), **options)

thumbnail = io.BytesIO(); picture(32, 24).save(thumbnail, "JPEG", quality=60)
def exif_with(orientation):
    return piexif.dump({
        "0th": {piexif.ImageIFD.Make: b"Fuzz", piexif.ImageIFD.Model: b"Seed 1", piexif.ImageIFD.Orientation: orientation,
                piexif.ImageIFD.DateTime: b"2026:11:20 09:00:00"},
        "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2026:11:20 09:00:00", piexif.ExifIFD.SubSecTimeOriginal: b"250",
                 piexif.ExifIFD.OffsetTimeOriginal: b"+01:00", piexif.ExifIFD.UserComment: b"ASCII\0\0\0seed"},
        "GPS": {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: ((52, 1), (30, 1), (0, 1))},
        "1st": {piexif.ImageIFD.Compression: 6}, "thumbnail": thumbnail.getvalue()})
exif = exif_with(6)
save("seed.jpg", picture(120, 90), format="JPEG", quality=85, exif=exif)
save("seed-progressive.jpg", picture(100, 75), format="JPEG", quality=70, progressive=True)
save("seed-grey.jpg", picture(80, 64).convert("L"), format="JPEG", quality=80)
save("seed-444.jpg", picture(80, 64), format="JPEG", quality=90, subsampling=0)
save("seed.png", picture(96, 64), format="PNG", exif=exif[6:])
save("seed-palette.png", picture(96, 64).convert("P"), format="PNG")
save("seed-16bit.png", Image.fromarray((np.arange(80 * 64, dtype=np.uint16).reshape(64, 80) * 16)), format="PNG")
save("seed.webp", picture(96, 64), format="WEBP", quality=70, exif=exif)
save("seed-lossless.webp", picture(80, 64), format="WEBP", lossless=True)
save("seed-lzw.tif", picture(80, 64), format="TIFF", compression="tiff_lzw")
save("seed-packbits.tif", picture(64, 64), format="TIFF", compression="packbits")
with open(os.path.join(out, "seed-big-endian.exif"), "wb") as f:
    f.write(exif)
little = Image.Exif()
little[0x010F] = "Fuzz"; little[0x0110] = "Seed 2"; little[0x0112] = 3
with open(os.path.join(out, "seed-little-endian.exif"), "wb") as f:
    f.write(little.tobytes())

save("strip-4000x1.jpg", picture(4000, 1), format="JPEG", quality=85)
save("strip-1x4000.jpg", picture(1, 4000), format="JPEG", quality=85)
save("strip-4000x2.jpg", picture(4000, 2), format="JPEG", quality=85)
save("strip-2x4000-progressive.jpg", picture(2, 4000).convert("L"), format="JPEG", quality=85, progressive=True)
save("strip-4000x1.png", picture(4000, 1), format="PNG")
save("strip-1x4000.png", picture(1, 4000).convert("L"), format="PNG")
save("strip-1x4000.webp", picture(1, 4000), format="WEBP", quality=70)
save("strip-4000x1.tif", picture(4000, 1), format="TIFF", compression="tiff_lzw")

bits = barcode.get("ean13", "590123412345").build()[0]
module, quiet = 1.8, 11
label = np.full((int(len(bits) * module * 0.5) + 8, int((len(bits) + 2 * quiet) * module)), 255, np.uint8)
for i, b in enumerate(bits):
    if b == "1":
        label[4:-4, int((quiet + i) * module):int((quiet + i + 1) * module)] = 0
large = picture(4000, 3000, noise=8).convert("L")
large.paste(Image.fromarray(label).rotate(12, expand=True, fillcolor=255, resample=Image.BICUBIC), (2500, 1900))
save("large-4000x3000.jpg", large.convert("RGB"), format="JPEG", quality=85, exif=exif_with(6))
save("large-2000x1500-progressive.jpg", picture(2000, 1500, noise=8), format="JPEG", quality=80, progressive=True)
"""#
