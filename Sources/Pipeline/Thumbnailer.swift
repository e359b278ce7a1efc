import Catalog
import Foundation
import Logging

/// Makes thumbnails anew from the originals in the library, for `ingest thumbnails` and `ingest verify --repair`.
///
/// Each original is decoded with libvips' shrink-on-load, turned upright per its EXIF orientation and
/// encoded as the ingest does; the thumbnail file is replaced atomically (a crash leaves the old one or
/// the new one), then its size is recorded in the catalogue. Photos are processed by `workers` threads.
public final class Thumbnailer: @unchecked Sendable {
    /// JPEG quality of thumbnails, the same as `PhotoAnalyzer` writes.
    static let jpegQuality = 85

    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout

    /// Called from worker threads after each photo; must be quick and thread-safe.
    public var onProgress: (@Sendable (RunProgress) -> Void)?

    public init(config: PipelineConfig, catalogue: Catalogue, logger: Logger) throws {
        try Vips.start()
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    /// Remakes the thumbnail of every catalogued photo, `width` pixels wide (the configuration's
    /// `thumbnailWidth` when nil).
    public func regenerateThumbnails(width: Int? = nil) throws -> ThumbnailReport {
        regenerate(try catalogue.allPhotos(), width: width ?? config.thumbnailWidth)
    }

    /// Makes the thumbnails missing from the library, each at its recorded width unless `width` is given.
    public func makeMissingThumbnails(width: Int? = nil) throws -> ThumbnailReport {
        let missing = try catalogue.allPhotos().filter { !FileOperations.exists(layout.absolute($0.thumbPath)) }
        return regenerate(missing, width: width)
    }

    /// Remakes the thumbnails of `photos`, `width` pixels wide or, when nil, each at its recorded width.
    /// A photo that fails (its original missing or unreadable) keeps its thumbnail and is reported.
    public func regenerate(_ photos: [Photo], width: Int?) -> ThumbnailReport {
        let started = Date()
        let counter = ProgressCounter(photos: photos.count, started: started)
        let failures = WorkerPool.map(photos, workers: config.workers) { photo -> FileReport? in
            defer { onProgress?(counter.photoDone()) }
            do {
                try regenerate(photo, width: width ?? photo.thumbWidth)
                return nil
            } catch {
                logger.error("thumbnail not made", metadata: ["photo": "\(photo.originalPath)", "error": "\(error)"])
                return FileReport(path: photo.thumbPath, reason: "from \(photo.originalPath): \(error)", keptAt: nil)
            }
        }.compactMap { $0 }
        return ThumbnailReport(made: photos.count - failures.count, failed: failures,
                               seconds: Date().timeIntervalSince(started))
    }

    /// The pixel size of the thumbnail file at `path` (library-relative) from its header; nil when
    /// it is missing or not a readable image.
    func sizeOfThumbnail(at path: String) -> (width: Int, height: Int)? {
        guard let snapshot = try? FileSnapshot.read(layout.absolute(path), maxBytes: config.maxFileBytes) else { return nil }
        return snapshot.bytes.withUnsafeBytes { bytes in
            guard let format = Vips.format(of: bytes), let image = try? VipsImage.open(bytes, format: format, shrink: 1) else {
                return nil
            }
            return (image.width, image.height)
        }
    }

    private func regenerate(_ photo: Photo, width: Int) throws {
        let original = try FileSnapshot.read(layout.absolute(photo.originalPath),
                                             maxBytes: max(config.maxFileBytes, photo.byteSize))
        let (jpeg, size) = try original.bytes.withUnsafeBytes { bytes in
            let thumbnail = try VipsImage.thumbnail(of: bytes, width: width)
            return (try thumbnail.jpeg(quality: Self.jpegQuality), (width: thumbnail.width, height: thumbnail.height))
        }
        let path = layout.absolute(photo.thumbPath)
        try FileOperations.makeDirectories((path as NSString).deletingLastPathComponent)
        try FileOperations.replace(path, with: jpeg)
        try catalogue.recordThumbnail(photoId: photo.id, width: size.width, height: size.height)
    }
}

/// What a thumbnail regeneration did.
public struct ThumbnailReport: Sendable {
    /// Thumbnails written and recorded.
    public var made: Int
    /// Thumbnails that could not be made (`path` is the thumbnail's, library-relative).
    public var failed: [FileReport]
    public var seconds: Double
}
