package import Catalog
import Foundation
import Imaging
package import Logging
internal import SystemPackage

/// Makes thumbnails anew from the originals in the library, for `ingest thumbnails` and `ingest verify --repair`.
///
/// Each original is decoded with libvips' shrink-on-load, turned upright per its EXIF orientation and
/// encoded as the ingest does; the thumbnail file is replaced atomically (a crash leaves the old one or
/// the new one), then its size is recorded in the catalogue. Photos are processed by `workers` threads.
package final class Thumbnailer: Sendable {
    private let config: PipelineConfig
    private let catalogue: Catalogue
    private let logger: Logger
    private let layout: LibraryLayout
    private let onProgress: @Sendable (RunProgress) -> Void

    /// - Parameter onProgress: called from worker threads after each photo; must be quick and thread-safe.
    package init(config: PipelineConfig, catalogue: Catalogue, logger: Logger,
                onProgress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.config = config
        self.catalogue = catalogue
        self.logger = logger
        self.onProgress = onProgress
        layout = LibraryLayout(root: config.library, quarantine: config.quarantine)
    }

    /// Remakes the thumbnail of every catalogued photo, `width` pixels wide (the configuration's
    /// `thumbnailWidth` when nil). Each thumbnail that cannot be made goes to `onFailure` as soon as
    /// it failed, from the calling thread; the report counts them.
    package func regenerateThumbnails(width: Int? = nil, onFailure: (FileReport) -> Void = { _ in }) throws -> ThumbnailReport {
        try regenerateAll(width: width ?? config.thumbnailWidth, onFailure: onFailure) { _ in true }
    }

    /// Makes the thumbnails missing from the library, each at its recorded width unless `width` is
    /// given; failures go to `onFailure` as `regenerateThumbnails` says.
    package func makeMissingThumbnails(width: Int? = nil, onFailure: (FileReport) -> Void = { _ in }) throws -> ThumbnailReport {
        try regenerateAll(width: width, onFailure: onFailure) { !FileOperations.exists(layout.absolute($0.thumbPath)) }
    }

    /// Remakes the thumbnails of the catalogued photos `selected` picks, streaming them from the
    /// catalogue in batches and their failures to `onFailure`, so memory holds one batch whatever
    /// the catalogue's size and however many fail.
    private func regenerateAll(width: Int?, onFailure: (FileReport) -> Void, selected: (Photo) -> Bool) throws -> ThumbnailReport {
        let started = Date()
        let counter = ProgressCounter(photos: try catalogue.counts().photos, started: started)
        var report = ThumbnailReport(made: 0, failed: 0, seconds: 0)
        try catalogue.forEachPhotoBatch(size: LibraryVerifier.batchSize) { batch in
            let chosen = batch.filter(selected)
            for _ in 0 ..< batch.count - chosen.count { onProgress(counter.photoDone()) }
            let failures = try regenerate(chosen, width: width, counter: counter)
            report.made += chosen.count - failures.count
            report.failed += failures.count
            failures.forEach(onFailure)
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Remakes the thumbnails of `photos`, `width` pixels wide or, when nil, each at its recorded
    /// width, and returns those that could not be made: a photo that fails (its original missing or
    /// unreadable) keeps its thumbnail. Throws `ImageError` when the image libraries cannot start
    /// (then no thumbnail is made).
    func regenerate(_ photos: [Photo], width: Int?) throws -> [FileReport] {
        try regenerate(photos, width: width, counter: ProgressCounter(photos: photos.count))
    }

    private func regenerate(_ photos: [Photo], width: Int?, counter: ProgressCounter) throws -> [FileReport] {
        // libvips starts only once there is a thumbnail to make: a check that finds every thumbnail
        // in place keeps its memory small.
        if !photos.isEmpty { try ImageLibraries.start() }
        return WorkerPool.map(photos, workers: config.workers) { photo -> FileReport? in
            defer { onProgress(counter.photoDone()) }
            do {
                try regenerate(photo, width: width ?? photo.thumbWidth)
                return nil
            } catch {
                logger.error("thumbnail not made", metadata: ["photo": "\(photo.originalPath)", "error": "\(error)"])
                return FileReport(path: photo.thumbPath, reason: "from \(photo.originalPath): \(error)", keptAt: nil)
            }
        }.compactMap { $0 }
    }

    /// The pixel size of the thumbnail file at `path` (library-relative) from its JPEG frame header;
    /// nil when it is missing or not a JPEG.
    func sizeOfThumbnail(at path: String) -> (width: Int, height: Int)? {
        guard let snapshot = try? FileSnapshot.read(layout.absolute(path), maxBytes: config.maxFileBytes) else { return nil }
        return JPEGFrame.size(of: snapshot.bytes)
    }

    private func regenerate(_ photo: Photo, width: Int) throws {
        let original = try FileSnapshot.read(layout.absolute(photo.originalPath),
                                             maxBytes: max(config.maxFileBytes, photo.byteSize))
        let thumbnail = try Thumbnail(original: original.bytes, width: width)
        let path = layout.absolute(photo.thumbPath)
        try FileOperations.makeDirectories(path.removingLastComponent())
        try FileOperations.replace(path, with: thumbnail.jpeg)
        try catalogue.recordThumbnail(photoId: photo.id, width: thumbnail.width, height: thumbnail.height)
    }
}
