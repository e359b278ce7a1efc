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
    /// The file as it was read, to notice a change before the photo is committed.
    public var source: FileIdentity

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
    private let reader: BarcodeReader
    /// Photos are decoded once with JPEG shrink-on-load down to about this long edge (a 12 MP photo
    /// at 1/4): 16× fewer pixels than a full decode, enough for the thumbnail, the quality metrics
    /// and most barcodes; `BarcodeReader` goes back to full resolution for small ones.
    static let overviewEdge = 1000

    /// - Parameters:
    ///   - stagingFolder: where thumbnails are written until their set is committed; must exist.
    public init(config: PipelineConfig, stagingFolder: String) throws {
        try Vips.start()
        self.config = config
        self.stagingFolder = stagingFolder
        reader = BarcodeReader(symbologies: config.symbologies)
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
        let barcodes = Self.deduplicated(decoded.barcodes)
        let exif = decoded.exif
        let time = CaptureTime.fromExif(dateTime: exif?.dateTimeOriginal, subSeconds: exif?.subSecTimeOriginal,
                                        offset: exif?.offset)
            ?? CaptureTime.fromFileTime(seconds: snapshot.modified.tv_sec, nanoseconds: snapshot.modified.tv_nsec)
        let sideways = decoded.orientation >= 5
        let thumbPath = (stagingFolder as NSString).appendingPathComponent(UUID().uuidString.lowercased() + ".jpg")
        do {
            try FileOperations.write(decoded.thumbnailJPEG, to: thumbPath)
        } catch let error as FileOperationError {
            // Our storage failing is not the photo's fault: it must never quarantine the photo.
            throw PhotoError.notStaged(error)
        }
        return .analysed(AnalysedPhoto(
            file: file, sha256: sha256, byteSize: snapshot.size, format: decoded.format,
            width: sideways ? decoded.height : decoded.width, height: sideways ? decoded.width : decoded.height,
            orientation: decoded.orientation, make: exif?.make, model: exif?.model, time: time,
            barcodes: barcodes, quality: PhotoQuality(measuring: decoded.measureGrey, barcodes: barcodes),
            thumbnail: StagedThumbnail(path: thumbPath, width: decoded.thumbnailWidth, height: decoded.thumbnailHeight),
            source: snapshot.identity))
    }

    /// What one decode yields.
    private struct DecodedPhoto {
        var format: ImageFormat
        var width: Int
        var height: Int
        var orientation: Int
        var exif: ExifInfo?
        var barcodes: [BarcodeReading]
        var measureGrey: GreyImage
        var thumbnailJPEG: [UInt8]
        var thumbnailWidth: Int
        var thumbnailHeight: Int
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws -> DecodedPhoto {
        let header = try VipsImage.open(bytes, format: format, shrink: 1)
        let (width, height) = (header.width, header.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixelCount <= config.maxPixels else {
            throw PhotoError.tooManyPixels(width: width, height: height, limit: config.maxPixels)
        }
        var shrink = 1
        if format == .jpeg {
            // libvips 8.14 rounds a shrunk side down, and a side shrunk to nothing fails an assertion
            // that aborts the process (found by fuzzing: a 56128×3 JPEG): never shrink a side below 1 px.
            while shrink < 8, max(width, height) / (shrink * 2) >= Self.overviewEdge, min(width, height) >= shrink * 2 {
                shrink *= 2
            }
        }
        let overview = try (shrink == 1 ? header : VipsImage.open(bytes, format: format, shrink: shrink))
            .decodedIntoMemory().eightBit()
        let orientation = header.orientation
        let (grey, thumbnail) = try overview.withPixels { pixels in
            (pixels.greyBand(), try makeThumbnail(of: overview, pixels, orientation: orientation))
        }
        let barcodes = try reader.read(overview: grey, shrink: shrink) { box in
            try JPEGRegion.grey(bytes, box: box)
        }
        return DecodedPhoto(
            format: format, width: width, height: height, orientation: orientation,
            exif: header.exifBlob.flatMap(ExifInfo.init(block:)), barcodes: barcodes,
            measureGrey: grey.shrunk(toLongEdge: PhotoQuality.measureEdge),
            thumbnailJPEG: try thumbnail.jpeg(quality: Thumbnailer.jpegQuality),
            thumbnailWidth: thumbnail.width, thumbnailHeight: thumbnail.height)
    }

    /// The thumbnail, `config.thumbnailWidth` wide once upright: shrunk from the overview's pixels by
    /// area averaging (a fifth of what libvips' resampling costs here, measured), then turned upright
    /// by libvips; a photo narrower than that is enlarged by libvips instead.
    private func makeThumbnail(of image: VipsImage, _ pixels: PixelData, orientation: Int) throws -> VipsImage {
        let sideways = orientation >= 5
        let uprightWidth = sideways ? pixels.height : pixels.width
        let target = config.thumbnailWidth
        guard target < uprightWidth else { return try image.thumbnail(width: target) }
        let (width, height) = sideways
            ? (max(1, Int((Double(pixels.width) * Double(target) / Double(pixels.height)).rounded())), target)
            : (target, max(1, Int((Double(pixels.height) * Double(target) / Double(pixels.width)).rounded())))
        let shrunk = pixels.shrunk(toWidth: width, height: height)
        return try shrunk.withUnsafeBytes {
            try VipsImage.upright(PixelData(width: width, height: height, bands: pixels.bands, bytes: $0),
                                  orientation: orientation)
        }
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
