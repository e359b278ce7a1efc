package import Catalog
import FileSystem
import Foundation
import Imaging
package import Logging
package import SystemPackage
import Vocabulary

/// Analyses one photo: reads it once, decodes it once, and derives thumbnail, barcodes, time and quality.
///
/// Safe to call from many threads at once; each call borrows ZBar scanners from a pool.
package final class PhotoAnalyzer: Sendable {
    let config: PipelineConfig
    private let stagingFolder: FilePath
    let decoder: PhotoDecoder
    private let reader: BarcodeReader
    private let logger: Logger
    /// Each photo's seconds in the stages of its analysis (`MetricFamily.photoSeconds`).
    private let readSeconds = MetricFamily.photoSeconds.timer("read")
    private let decodeSeconds = MetricFamily.photoSeconds.timer("decode")
    private let barcodeSeconds = MetricFamily.photoSeconds.timer("barcodes")

    /// - Parameters:
    ///   - stagingFolder: where thumbnails are written until their set is committed; must exist.
    ///   - logger: told what went wrong without costing the photo (a full-resolution barcode pass).
    /// - Throws: `ImageError` when the image libraries cannot start.
    package init(config: PipelineConfig, stagingFolder: FilePath, logger: Logger = Logger(label: "ingest")) throws {
        try ImageLibraries.start()
        self.config = config
        self.logger = logger
        self.stagingFolder = stagingFolder
        var decoder = PhotoDecoder(maxPixels: config.maxPixels, minSide: config.minPixels, thumbnailWidth: config.thumbnailWidth)
        decoder.memory = DecodeMemory(limit: config.decodeMemoryBytes)
        self.decoder = decoder
        reader = BarcodeReader(symbologies: config.symbologies)
    }

    /// The photo's analysis, or why it is not a usable photo. `catalogued` looks a SHA-256 up in the
    /// catalogue: a photo already there is reported as such without being decoded.
    package func analyse(_ file: InboxFile, catalogued: (String) -> Photo? = { _ in nil }) -> PhotoOutcome {
        do {
            return try analyseOrThrow(file, catalogued: catalogued)
        } catch let error as PhotoError {
            return .rejected(file, error)
        } catch let error as ImageError {
            return .rejected(file, .image(error))
        } catch {
            // Every error the steps above are meant to throw is caught above: this one is ours.
            return .rejected(file, .internalFailure(String(describing: error)))
        }
    }

    private func analyseOrThrow(_ file: InboxFile, catalogued: (String) -> Photo?) throws -> PhotoOutcome {
        let snapshot = try readSeconds.time { try Self.read(file, below: config.inbox, maxBytes: config.maxFileBytes) }
        let sha256 = snapshot.sha256
        if let existing = catalogued(sha256) { return .catalogued(file, existing: existing) }
        let decoded = try decodeSeconds.time { try decoder.decode(snapshot.bytes) }
        let reads = try barcodeSeconds.time {
            try self.barcodes(of: decoded, bytes: snapshot.bytes, with: reader, file: "\(file.setName)/\(file.relativePath)")
        }
        let barcodes = Self.deduplicated(reads.confirmed)
        let header = decoded.header
        let exif = header.exif
        let time = CaptureTime.fromExif(dateTime: exif?.dateTimeOriginal, subSeconds: exif?.subSecTimeOriginal,
                                        offset: exif?.offset)
            ?? CaptureTime.fromFileTime(seconds: snapshot.modified.tv_sec, nanoseconds: snapshot.modified.tv_nsec)
        let upright = header.uprightSize
        return .analysed(AnalysedPhoto(
            file: file, sha256: sha256, byteSize: snapshot.size, format: header.format,
            width: upright.width, height: upright.height, orientation: header.orientation,
            make: exif?.make, model: exif?.model, time: time, barcodes: barcodes,
            unconfirmedBarcodes: Self.deduplicated(reads.unconfirmed),
            quality: PhotoQuality(measuring: try decoded.overview.shrunk(toLongEdge: PhotoQuality.measureEdge),
                                  barcodes: barcodes),
            thumbnail: try stage(decoded.thumbnail), source: snapshot.identity))
    }

    /// The barcodes `reader` reads on a decoded photo (`bytes`, its file's, for the full-resolution
    /// pass; or `fullResolution`, which gives a rectangle of it); a failed full-resolution pass is
    /// logged with `file`, and the photo keeps what its overview gave.
    func barcodes(of decoded: DecodedPhoto, bytes: [UInt8], with reader: BarcodeReader, file: String,
                  fullResolution: ((PixelBox) throws -> (pixels: GreyImage, origin: PixelBox))? = nil) throws -> PhotoBarcodes {
        try reader.readAll(overview: decoded.overview, shrink: decoded.shrink) { box in
            try fullResolution?(box) ?? decoded.fullResolution(box, from: bytes)
        } onPassFailed: { [logger] error in
            logger.warning("full-resolution barcode pass failed; the photo keeps what its overview gave",
                           metadata: ["file": "\(file)", "error": "\(error)"])
        }
    }

    /// Reads `file` through real folders below `inbox` only (`ContainedPath`): a set folder swapped
    /// for a link after it was listed is refused like a link, never followed.
    private static func read(_ file: InboxFile, below inbox: FilePath, maxBytes: Int64) throws -> FileSnapshot {
        do {
            return try ContainedPath.withPath(file.absolutePath, below: inbox) { try FileSnapshot.read($0, maxBytes: maxBytes) }
        } catch let error as Errno {
            // A set folder gone on the way to the file: moved by whoever holds the set now.
            if error == .noSuchFileOrDirectory { throw PhotoError.goneBeforeReading }
            throw [.tooManySymbolicLinkLevels, .notDirectory].contains(error) ? PhotoError.symbolicLink : PhotoError.unreadable(error.description)
        }
    }

    /// Writes the thumbnail to the staging folder until its set is committed.
    private func stage(_ thumbnail: Thumbnail) throws -> StagedThumbnail {
        let path = stagingFolder.appending(UUID().uuidString.lowercased() + ".jpg")
        do {
            try FileOperations.write(thumbnail.jpeg, to: path)
        } catch let error as FileOperationError {
            // Our storage failing is not the photo's fault: it must never quarantine the photo.
            throw PhotoError.notStaged(error)
        }
        return StagedThumbnail(path: path, width: thumbnail.width, height: thumbnail.height)
    }

    /// One reading per code (the best, with the add-on any of its reads gave), retail codes first,
    /// of them those that name a trade item (a book's ISBN before its price code), then by quality.
    static func deduplicated(_ readings: [BarcodeReading]) -> [BarcodeReading] {
        var best: [String: BarcodeReading] = [:]
        for reading in readings where (best[reading.productKey]?.quality ?? -1) < reading.quality {
            best[reading.productKey] = reading
        }
        for reading in readings where reading.addon != nil && best[reading.productKey]?.addon == nil {
            best[reading.productKey]?.addon = reading.addon
        }
        return best.values.sorted {
            if $0.symbology.isRetail != $1.symbology.isRetail { return $0.symbology.isRetail }
            if $0.namesTradeItem != $1.namesTradeItem { return $0.namesTradeItem }
            if $0.quality != $1.quality { return $0.quality > $1.quality }
            return $0.productKey < $1.productKey
        }
    }
}
