import Vocabulary

/// Decodes a photo once and derives from that one decode all the pixels the pipeline needs: a grey
/// overview for barcodes and quality, and the thumbnail.
///
/// A JPEG is decoded with shrink-on-load down to about `overviewEdge` on its long edge (a 12 MP
/// photo at 1/4): 16× fewer pixels than a full decode, enough for the thumbnail, the quality metrics
/// and most barcodes; `JPEGRegion` goes back to full resolution for small ones. Thread-safe.
package struct PhotoDecoder: Sendable {
    /// Images with more pixels are refused from their header, before decoding.
    package var maxPixels: Int
    /// Images with a side shorter than this are refused from their header.
    package var minSide: Int
    /// The thumbnail's width once upright.
    package var thumbnailWidth: Int
    /// The long edge a JPEG is shrunk towards while it is decoded.
    package var overviewEdge = 1000
    /// Shared by the decoders of one run: the memory their decodes hold at once; nil, unbounded.
    package var memory: DecodeMemory?

    package init(maxPixels: Int, minSide: Int = 1, thumbnailWidth: Int) {
        self.maxPixels = maxPixels
        self.minSide = minSide
        self.thumbnailWidth = thumbnailWidth
    }

    /// The photo in `bytes`, decoded once. Throws `ImageError` for anything but a sound image of an
    /// accepted format within `maxPixels` and `minSide`.
    package func decode(_ bytes: [UInt8]) throws(ImageError) -> DecodedPhoto {
        try Vips.start()
        return try bytes.withImageBytes { bytes throws(ImageError) in
            guard let format = Vips.format(of: bytes) else { throw .notAnImage }
            let header = try VipsImage.open(bytes, format: format, shrink: 1)
            let (width, height) = (header.width, header.height)
            let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
            guard width > 0, height > 0, !overflow, pixelCount <= maxPixels else {
                throw .tooManyPixels(width: width, height: height, limit: maxPixels)
            }
            guard min(width, height) >= minSide else { throw .tooFewPixels(width: width, height: height, limit: minSide) }
            let orientation = header.orientation
            let shrink = shrinkOnLoad(width: width, height: height, uprightWidth: orientation >= 5 ? height : width)
            return try reserving(peakBytes(width: width, height: height, format: format, shrink: shrink)) { () throws(ImageError) in
                try decodePixels(bytes, header: header, format: format, orientation: orientation, shrink: shrink)
            }
        }
    }

    /// The overview, the thumbnail and (when the overview is shrunk from it) the full-resolution
    /// grey. The decoded rows pass once, never all in memory at once. A JPEG shrinks while it loads,
    /// to the overview. Other formats cannot (libheif decodes a HEIC whole), so their rows are
    /// shrunk to the same overview by area averaging as they pass (barcodes and quality then cost
    /// what a JPEG's do), and their full-resolution grey is kept for small codes.
    private func decodePixels(_ bytes: UnsafeRawBufferPointer, header: VipsImage, format: ImageFormat, orientation: Int,
                              shrink: Int) throws(ImageError) -> DecodedPhoto {
        let image = try (format == .jpeg && shrink > 1 ? VipsImage.open(bytes, format: format, shrink: shrink) : header).eightBit()
        let facts = ImageHeader(header, format: format)
        guard format != .jpeg, shrink > 1 else {
            // The loader's rows are the overview: the thumbnail is resampled from them as they pass,
            // making up for the blur of a JPEG's shrink on load (each pixel a mean of shrink² pixels).
            let size = thumbnailSize(width: image.width, height: image.height, orientation: orientation)
            let (grey, small, bands) = try image.greyAndShrunk(toWidth: size.width, height: size.height, resampling: shrink)
            let thumbnail = try small.withImageBytes { bytes throws(ImageError) in
                try VipsImage.upright(PixelData(width: size.width, height: size.height, bands: bands, bytes: bytes),
                                      orientation: orientation)
            }
            return DecodedPhoto(header: facts, overview: grey, shrink: shrink, thumbnail: try Thumbnail(thumbnail))
        }
        let (overviewWidth, overviewHeight) = (max(1, header.width / shrink), max(1, header.height / shrink))
        let (full, small, bands) = try image.greyAndShrunk(toWidth: overviewWidth, height: overviewHeight)
        return try small.withImageBytes { bytes throws(ImageError) in
            let overview = PixelData(width: overviewWidth, height: overviewHeight, bands: bands, bytes: bytes)
            return DecodedPhoto(header: facts, overview: overview.greyBand(), shrink: shrink,
                                thumbnail: try Thumbnail(try makeThumbnail(of: overview, shrink: shrink, orientation: orientation)),
                                fullResolution: full)
        }
    }

    /// The most a decode holds at once, for `memory`. A JPEG shrinks while it loads: its overview,
    /// its grey and the thumbnail (4 bytes an overview pixel). Other formats are decoded whole: 8
    /// bytes a pixel, the peak measured on a 48 MP HEIC (libheif's YCbCr and RGB copies, 6.8, and
    /// the grey kept at full resolution, 1); PNG and TIFF, read by rows, hold less.
    func peakBytes(width: Int, height: Int, format: ImageFormat, shrink: Int) -> Int {
        format == .jpeg ? 4 * (width / shrink + 1) * (height / shrink + 1) : 8 * width * height
    }

    private func reserving<T>(_ bytes: Int, _ body: () throws(ImageError) -> T) throws(ImageError) -> T {
        guard let memory else { return try body() }
        return try memory.withReservation(of: bytes, body)
    }

    /// How many times the thumbnail's width the overview it is resampled from must be, at least.
    /// Lanczos from a copy 1.26× as wide gave 0.81–0.87 of vipsthumbnail's sharpness (variance of
    /// the Laplacian) on 12 MP photos, from 1.89× 0.91–0.94, from 2.5× 0.99–1, before the resample
    /// made up for the blur of the shrink on load. vips_thumbnail's own 2× would decode a 12 MP
    /// portrait photo at half size for a 400 px thumbnail: four times the pixels of the
    /// quarter-size decode its overview needs, and 20 ms more.
    static let thumbnailSourceRatio = 1.85

    /// The shrink factor (1, 2, 4 or 8; on load for a JPEG) that keeps the long edge at `overviewEdge` or
    /// more and the upright width at `thumbnailSourceRatio` × `thumbnailWidth` or more: the
    /// thumbnail is resampled from the overview.
    func shrinkOnLoad(width: Int, height: Int, uprightWidth: Int) -> Int {
        var shrink = 1
        // libvips 8.14 rounds a shrunk side down, and a side shrunk to nothing fails an assertion
        // that aborts the process (found by fuzzing: a 56128×3 JPEG): never shrink a side below 1 px.
        while shrink < 8, max(width, height) / (shrink * 2) >= overviewEdge, min(width, height) >= shrink * 2,
              Double(uprightWidth / (shrink * 2)) >= Self.thumbnailSourceRatio * Double(thumbnailWidth) {
            shrink *= 2
        }
        return shrink
    }

    /// The size, before it is turned upright, of the thumbnail of a `width` × `height` image:
    /// `thumbnailWidth` wide once upright, or the image's own size when it is narrower than that (a
    /// thumbnail is never an enlargement).
    func thumbnailSize(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        let sideways = orientation >= 5
        let target = min(thumbnailWidth, sideways ? height : width)
        return sideways
            ? (max(1, Int((Double(width) * Double(target) / Double(height)).rounded())), target)
            : (target, max(1, Int((Double(height) * Double(target) / Double(width)).rounded())))
    }

    /// The thumbnail of the overview's pixels, each the mean of `shrink` × `shrink` of the
    /// original's: resampled to `thumbnailSize` with Lanczos' kernel, as libvips' thumbnails are,
    /// then turned upright by libvips.
    private func makeThumbnail(of pixels: PixelData, shrink: Int, orientation: Int) throws(ImageError) -> VipsImage {
        let (width, height) = thumbnailSize(width: pixels.width, height: pixels.height, orientation: orientation)
        guard width < pixels.width || height < pixels.height else { return try VipsImage.upright(pixels, orientation: orientation) }
        let shrunk = try pixels.resampled(toWidth: width, height: height, sourceShrink: shrink)
        return try shrunk.withImageBytes { bytes throws(ImageError) in
            try VipsImage.upright(PixelData(width: width, height: height, bands: pixels.bands, bytes: bytes),
                                  orientation: orientation)
        }
    }
}
