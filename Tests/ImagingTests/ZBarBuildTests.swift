import Foundation
@testable import Imaging
import Synchronization
import TestSupport
import Vocabulary
import XCTest

/// ingest's ZBar — Debian 12's source with scripts/zbar/scan-run.patch, built by scripts/setup —
/// against Debian's own build of the same source (libzbar0, called from Python through ctypes).
/// The patch only makes the image scanner's loop over the pixels cheaper: every symbol, its type,
/// its bytes, its quality (the agreeing scan lines the acceptance rules count) and where it lies
/// must be what Debian's ZBar gives on the same pixels with the same settings.
final class ZBarBuildTests: XCTestCase {
    /// One way the reader scans: every `density`-th line, rows alone (regions turned upright) or
    /// rows and columns; the seven symbologies, or the add-ons alone.
    private struct Setting {
        var density: Int
        var rowsOnly = false
        var addons = false

        var label: String { "density \(density)" + (rowsOnly ? ", rows only" : "") + (addons ? ", add-ons" : "") }

        var scanner: BarcodeScanner {
            addons ? .addons(density: density)
                : BarcodeScanner(symbologies: Set(Symbology.allCases), density: density, rowsOnly: rowsOnly)
        }

        /// `BarcodeScanner`'s configuration calls for these settings, as (symbol type, setting,
        /// value) in zbar.h's numbers: all off, the wanted ones on, QR bytes as they are, densities.
        var configuration: [[Int]] {
            let types = addons ? [2, 5] : [13, 12, 9, 8, 128, 93, 64]
            let (enable, binary, xDensity, yDensity) = (0, 4, 0x100, 0x101)
            return [[0, enable, 0]] + types.map { [$0, enable, 1] } + [[64, binary, 1], [0, xDensity, rowsOnly ? 0 : density],
                                                                        [0, yDensity, density]]
        }
    }

    /// Reads each PGM file named on standard input's JSON with Debian's libzbar0 — a new image
    /// scanner each, configured as asked — and prints one JSON list per image: each symbol's type
    /// number, quality, bytes in hex and location points, in ZBar's order.
    private static let debiansZBar = """
        import ctypes, json, sys
        zbar = ctypes.CDLL("libzbar.so.0")
        P, I, U = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
        for name, restype, argtypes in [
                ("zbar_image_scanner_create", P, []), ("zbar_image_scanner_destroy", None, [P]),
                ("zbar_image_scanner_set_config", I, [P, I, I, I]), ("zbar_image_create", P, []),
                ("zbar_image_destroy", None, [P]), ("zbar_image_set_format", None, [P, ctypes.c_ulong]),
                ("zbar_image_set_size", None, [P, U, U]), ("zbar_image_set_data", None, [P, P, ctypes.c_ulong, P]),
                ("zbar_scan_image", I, [P, P]), ("zbar_image_first_symbol", P, [P]), ("zbar_symbol_next", P, [P]),
                ("zbar_symbol_get_type", I, [P]), ("zbar_symbol_get_data", P, [P]), ("zbar_symbol_get_data_length", U, [P]),
                ("zbar_symbol_get_quality", I, [P]), ("zbar_symbol_get_loc_size", U, [P]),
                ("zbar_symbol_get_loc_x", I, [P, U]), ("zbar_symbol_get_loc_y", I, [P, U])]:
            function = getattr(zbar, name)
            function.restype, function.argtypes = restype, argtypes
        job = json.load(sys.stdin)
        for path in job["images"]:
            with open(path, "rb") as f:
                magic, width, height, depth = f.readline(), *map(int, f.readline().split()), int(f.readline())
                pixels = f.read()
            assert magic == b"P5\\n" and depth == 255 and len(pixels) == width * height
            scanner = zbar.zbar_image_scanner_create()
            for symbol_type, setting, value in job["configuration"]:
                zbar.zbar_image_scanner_set_config(scanner, symbol_type, setting, value)
            image = zbar.zbar_image_create()
            zbar.zbar_image_set_format(image, 0x30303859)  # Y800
            zbar.zbar_image_set_size(image, width, height)
            buffer = ctypes.create_string_buffer(pixels, len(pixels))
            zbar.zbar_image_set_data(image, ctypes.cast(buffer, P), len(pixels), None)
            found = []
            if zbar.zbar_scan_image(scanner, image) > 0:
                symbol = zbar.zbar_image_first_symbol(image)
                while symbol:
                    data = ctypes.string_at(zbar.zbar_symbol_get_data(symbol), zbar.zbar_symbol_get_data_length(symbol))
                    points = [[zbar.zbar_symbol_get_loc_x(symbol, k), zbar.zbar_symbol_get_loc_y(symbol, k)]
                              for k in range(zbar.zbar_symbol_get_loc_size(symbol))]
                    found.append([zbar.zbar_symbol_get_type(symbol), zbar.zbar_symbol_get_quality(symbol), data.hex(), points])
                    symbol = zbar.zbar_symbol_next(symbol)
            zbar.zbar_image_destroy(image)
            zbar.zbar_image_scanner_destroy(scanner)
            print(json.dumps(found))
        """

    /// The grey pixels ingest's reader scans: the overview of each real photo (close-ups of codes,
    /// whole grocery photos, photos without a code) and a region of it turned, enlarged and
    /// smoothed along its rows as the locator's regions are, each also written as a PGM file.
    private func images(in folder: String) throws -> [(path: String, image: GreyImage)] {
        let off = RealPhotos.folder.appendingPathComponent("off")
        let photos = try RealPhotos.withCodes().map(\.path) + RealPhotos.withoutCodes()
            + FileManager.default.contentsOfDirectory(atPath: off.path).sorted().filter { $0.hasSuffix(".jpg") }
            .map { off.appendingPathComponent($0).path }
        let decoder = PhotoDecoder(maxPixels: 100_000_000, minSide: 8, thumbnailWidth: 400)
        var images: [(path: String, image: GreyImage)] = []
        for (index, photo) in photos.enumerated() {
            // (nobarcode/ holds a few files that are not photos, which ingest refuses.)
            guard let overview = try? decoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))).overview else { continue }
            let middle = PixelBox(x: overview.width / 4, y: overview.height / 4, width: overview.width / 2, height: overview.height / 2)
            for (kind, image) in [("overview", overview), ("region", try overview.region(middle, angle: 17, scale: 1.5, smoothRows: 5))] {
                let path = "\(folder)/\(index)-\(kind).pgm"
                var pgm = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
                pgm.append(contentsOf: image.pixels)
                try pgm.write(to: URL(fileURLWithPath: path))
                images.append((path, image))
            }
        }
        return images
    }

    func testScan_realPhotos_readWhatDebiansOwnZBarReads() throws {
        let folder = try makeTemporaryFolder()
        let images = try images(in: folder)
        XCTAssertGreaterThan(images.count, 500, "the real photos, twice")
        let settings = [Setting(density: 1), Setting(density: 3, rowsOnly: true), Setting(density: 4), Setting(density: 2, addons: true)]
        // The settings side by side: each mostly waits on its Python process.
        let symbols = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: settings.count) { index in
            let setting = settings[index]
            do {
                let job = try JSONSerialization.data(withJSONObject: ["images": images.map(\.path), "configuration": setting.configuration])
                let lines = try runPython(Self.debiansZBar, input: job).split(separator: "\n")
                XCTAssertEqual(lines.count, images.count, setting.label)
                for ((path, image), line) in zip(images, lines) {
                    let debians = try Self.symbols(fromJSON: String(line), addons: setting.addons)
                    let ours = setting.scanner.scan(image).map(Self.describe)
                    XCTAssertEqual(ours, debians, "\((path as NSString).lastPathComponent), \(setting.label)")
                    symbols.withLock { counts in
                        for symbol in ours { counts[String(symbol.prefix { $0 != " " }), default: 0] += 1 }
                    }
                }
            } catch {
                XCTFail("\(setting.label): \(error)")
            }
        }
        let counts = symbols.withLock { $0 }
        // What the comparison rests on: codes of the kinds ingest reads (468 symbols in all when it was written). The
        // real photos hold no Code 93; the patch is in the scanner, before every decoder, which all
        // see the same bar widths.
        for type in Symbology.allCases.map(\.rawValue) + ["EAN-2", "EAN-5"] where type != Symbology.code93.rawValue {
            XCTAssertGreaterThan(counts[type, default: 0], 0, "\(type) symbols read")
        }
        XCTAssertGreaterThan(counts.values.reduce(0, +), 400, "symbols read in all settings")
    }

    /// A symbol as both sides can say it: type, quality, text (a QR code's bytes made text as
    /// ingest makes them) and the box around ZBar's location points.
    private static func describe(_ symbol: DecodedSymbol) -> String {
        describe(type: symbol.isAddon ? "EAN-\(symbol.text.count)" : symbol.symbology.rawValue, quality: symbol.quality,
                 box: symbol.box, text: symbol.text)
    }

    private static func describe(type: String, quality: Int, box: PixelBox, text: String) -> String {
        "\(type) q\(quality) \(box) \(text)"
    }

    /// One image's symbols from the script's JSON line, described as `describe` describes
    /// ingest's: only those `BarcodeScanner` reports (the seven symbologies, or the add-ons).
    private static func symbols(fromJSON line: String, addons: Bool) throws -> [String] {
        let symbols = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[Any]])
        let names = [13: "EAN-13", 12: "UPC-A", 9: "UPC-E", 8: "EAN-8", 128: "CODE-128", 93: "CODE-93", 64: "QR-Code"]
        return try symbols.compactMap { symbol -> String? in
            let type = try XCTUnwrap(symbol[0] as? Int), quality = try XCTUnwrap(symbol[1] as? Int)
            let hex = Array(try XCTUnwrap(symbol[2] as? String).utf8)
            let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            let points = try XCTUnwrap(symbol[3] as? [[Int]])
            guard let name = addons ? [2: "EAN-2", 5: "EAN-5"][type] : names[type] else { return nil }
            let text = type == 64 ? DecodedSymbol.qrText(bytes) : String(decoding: bytes, as: UTF8.self)
            return describe(type: name, quality: quality, box: PixelBox(around: points.map { $0[0] }, points.map { $0[1] }), text: text)
        }
    }
}
