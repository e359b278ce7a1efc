import Catalog
import Foundation

/// A file of a set, as found in the inbox.
public struct InboxFile: Sendable, Hashable {
    /// The set (inbox sub-folder) it belongs to.
    public var setName: String
    /// Its path below the set folder: `IMG_0001.jpg` or `sub/IMG_0001.jpg`.
    public var relativePath: String
    public var absolutePath: String

    public init(setName: String, relativePath: String, absolutePath: String) {
        self.setName = setName
        self.relativePath = relativePath
        self.absolutePath = absolutePath
    }

    public var name: String { (relativePath as NSString).lastPathComponent }
}

/// Everything the pipeline learnt from one photo; its thumbnail waits in the staging folder.
public struct AnalysedPhoto: Sendable {
    public var file: InboxFile
    public var sha256: String
    public var byteSize: Int64
    public var format: ImageFormat
    /// Upright pixel size of the original.
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var make: String?
    public var model: String?
    public var time: CaptureTime
    /// Every valid barcode read, best first.
    public var barcodes: [BarcodeReading]
    public var quality: PhotoQuality
    public var thumbnail: StagedThumbnail

    /// The barcode that speaks for the photo: a retail code before others, then the best read.
    public var primaryBarcode: BarcodeReading? { barcodes.first }
}

/// What became of one file of a set after analysis.
public enum PhotoOutcome: Sendable {
    /// Decoded and measured; ready to commit.
    case analysed(AnalysedPhoto)
    /// Its bytes are already in the catalogue as `existing`: not decoded again.
    case catalogued(InboxFile, existing: Photo)
    /// Not a usable photo.
    case rejected(InboxFile, PhotoError)
}

/// A thumbnail written to the staging folder, to be moved into the library on commit.
public struct StagedThumbnail: Sendable {
    public var path: String
    public var width: Int
    public var height: Int
}

/// Analyses one photo: reads it once, decodes it once, and derives thumbnail, barcodes, time and quality.
///
/// Safe to call from many threads at once; each call borrows a ZBar scanner from a pool.
public final class PhotoAnalyzer: @unchecked Sendable {
    private let config: PipelineConfig
    private let stagingFolder: String
    private let scanners: ScannerPool
    /// Scanners for candidate regions turned upright: linear symbologies, every third row only.
    private let rowScanners: ScannerPool
    /// Photos are decoded with JPEG shrink-on-load down to about this long edge: enough for barcodes
    /// of ≥ 1.5 px per module at phone resolutions, and 4× fewer pixels than a 12 MP decode.
    static let scanEdge = 2000

    /// - Parameters:
    ///   - stagingFolder: where thumbnails are written until their set is committed; must exist.
    public init(config: PipelineConfig, stagingFolder: String) throws {
        try Vips.start()
        self.config = config
        self.stagingFolder = stagingFolder
        scanners = ScannerPool(symbologies: config.symbologies)
        rowScanners = ScannerPool(symbologies: config.symbologies.filter { $0 != .qr }, rowStep: 3)
    }

    /// The photo's analysis, or why it is not a usable photo. `catalogued` looks a SHA-256 up in the
    /// catalogue: a photo already there is reported as such without being decoded.
    public func analyse(_ file: InboxFile, catalogued: (String) -> Photo? = { _ in nil }) -> PhotoOutcome {
        do {
            return try analyseOrThrow(file, catalogued: catalogued)
        } catch let error as PhotoError {
            return .rejected(file, error)
        } catch {
            return .rejected(file, .library(String(describing: error)))
        }
    }

    private func analyseOrThrow(_ file: InboxFile, catalogued: (String) -> Photo?) throws -> PhotoOutcome {
        let snapshot = try FileSnapshot.read(file.absolutePath, maxBytes: config.maxFileBytes)
        let sha256 = snapshot.sha256
        if let existing = catalogued(sha256) { return .catalogued(file, existing: existing) }
        let decoded = try snapshot.bytes.withUnsafeBytes { bytes -> DecodedPhoto in
            guard let format = Vips.format(of: bytes) else { throw PhotoError.notAnImage }
            return try decode(bytes, format: format)
        }
        let barcodes = Self.deduplicated(try readBarcodes(decoded))
        let exif = decoded.exif
        let time = CaptureTime.fromExif(dateTime: exif?.dateTimeOriginal, subSeconds: exif?.subSecTimeOriginal,
                                        offset: exif?.offset)
            ?? CaptureTime.fromFileTime(seconds: snapshot.modified.tv_sec, nanoseconds: snapshot.modified.tv_nsec)
        let sideways = decoded.orientation >= 5
        let thumbPath = (stagingFolder as NSString).appendingPathComponent(UUID().uuidString.lowercased() + ".jpg")
        try Data(decoded.thumbnailJPEG).write(to: URL(fileURLWithPath: thumbPath))
        return .analysed(AnalysedPhoto(
            file: file, sha256: sha256, byteSize: snapshot.size, format: decoded.format,
            width: sideways ? decoded.height : decoded.width, height: sideways ? decoded.width : decoded.height,
            orientation: decoded.orientation, make: exif?.make, model: exif?.model, time: time,
            barcodes: barcodes, quality: PhotoQuality(measuring: decoded.measureGrey, barcodes: barcodes),
            thumbnail: StagedThumbnail(path: thumbPath, width: decoded.thumbnailWidth, height: decoded.thumbnailHeight)))
    }

    /// Barcodes in the whole frame; where there are none, in the candidate regions the locator finds,
    /// each cut out, turned upright and enlarged so that small or blurred codes decode.
    private func readBarcodes(_ decoded: DecodedPhoto) throws -> [BarcodeReading] {
        let whole = scanners.withScanner { $0.scan(decoded.grey) }.compactMap(GTIN.reading(from:))
        if !whole.isEmpty { return whole.map { $0.scaled(by: decoded.shrink) } }
        var found: [BarcodeReading] = []
        for candidate in BarcodeLocator().candidates(in: decoded.grey) {
            let longEdge = Double(max(candidate.box.width, candidate.box.height))
            let scale = min(3, max(1.5, 700 / longEdge))
            // Upright bars are read along rows of the smoothed region; a 2-D code needs the full scan.
            let attempts: [(rows: Int, pool: ScannerPool)] = candidate.isLinear ? [(7, rowScanners), (1, scanners)] : [(1, scanners)]
            for (rows, pool) in attempts {
                let region = try decoded.greyImage.region(candidate.box, angle: candidate.angle, scale: scale,
                                                          smoothRows: rows).pixels()
                let readings = pool.withScanner { $0.scan(region) }.compactMap(GTIN.reading(from:))
                guard !readings.isEmpty else { continue }
                found += readings.map { reading in
                    var placed = reading
                    placed.box = candidate.box
                    return placed.scaled(by: decoded.shrink)
                }
                break
            }
        }
        return found
    }

    /// What one decode yields.
    private struct DecodedPhoto {
        var format: ImageFormat
        var width: Int
        var height: Int
        var orientation: Int
        var shrink: Int
        var exif: ExifInfo?
        var grey: GreyImage
        /// The same grey pixels inside libvips, for cutting out candidate regions.
        var greyImage: VipsImage
        var measureGrey: GreyImage
        var thumbnailJPEG: [UInt8]
        var thumbnailWidth: Int
        var thumbnailHeight: Int
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws -> DecodedPhoto {
        let header = try VipsImage.open(bytes, format: format, shrink: 1)
        let (width, height) = (header.width, header.height)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= config.maxPixels,
              !width.multipliedReportingOverflow(by: height).overflow else {
            throw PhotoError.tooManyPixels(width: width, height: height, limit: config.maxPixels)
        }
        var shrink = 1
        if format == .jpeg {
            while shrink < 8, max(width, height) / (shrink * 2) >= Self.scanEdge { shrink *= 2 }
        }
        let lazy = shrink == 1 ? header : try VipsImage.open(bytes, format: format, shrink: shrink)
        let pixels = try lazy.decodedIntoMemory()
        let greyImage = try pixels.grey()
        let grey = try greyImage.pixels()
        let longEdge = max(grey.width, grey.height)
        let measureGrey = longEdge > PhotoQuality.measureEdge
            ? try greyImage.resized(by: Double(PhotoQuality.measureEdge) / Double(longEdge)).pixels()
            : grey
        let thumbnail = try pixels.thumbnail(width: config.thumbnailWidth)
        return DecodedPhoto(
            format: format, width: width, height: height, orientation: pixels.orientation, shrink: shrink,
            exif: pixels.exifBlob.flatMap(ExifInfo.init(block:)), grey: grey, greyImage: greyImage, measureGrey: measureGrey,
            thumbnailJPEG: try thumbnail.jpeg(quality: 85),
            thumbnailWidth: thumbnail.width, thumbnailHeight: thumbnail.height)
    }

    /// One reading per code (the best), retail codes first, then by quality.
    static func deduplicated(_ readings: [BarcodeReading]) -> [BarcodeReading] {
        var best: [String: BarcodeReading] = [:]
        for reading in readings where (best[reading.productKey]?.quality ?? -1) < reading.quality {
            best[reading.productKey] = reading
        }
        return best.values.sorted {
            if $0.symbology.isRetail != $1.symbology.isRetail { return $0.symbology.isRetail }
            if $0.quality != $1.quality { return $0.quality > $1.quality }
            return $0.productKey < $1.productKey
        }
    }
}

/// ZBar scanners for the workers: one per concurrent analysis, reused across photos.
private final class ScannerPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [BarcodeScanner] = []
    private let symbologies: Set<Symbology>
    private let rowStep: Int?

    init(symbologies: Set<Symbology>, rowStep: Int? = nil) {
        self.symbologies = symbologies
        self.rowStep = rowStep
    }

    func withScanner<T>(_ body: (BarcodeScanner) -> T) -> T {
        lock.lock()
        let scanner = idle.popLast() ?? BarcodeScanner(symbologies: symbologies, rowStep: rowStep)
        lock.unlock()
        defer {
            lock.lock()
            idle.append(scanner)
            lock.unlock()
        }
        return body(scanner)
    }
}
