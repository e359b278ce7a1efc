/// Decodes a photo once and derives from that one decode all the pixels the pipeline needs: a grey
/// overview for barcodes and quality, and the thumbnail.
///
/// A JPEG is decoded with shrink-on-load down to about `overviewEdge` on its long edge (a 12 MP
/// photo at 1/4): 16× fewer pixels than a full decode, enough for the thumbnail, the quality metrics
/// and most barcodes; `JPEGRegion` goes back to full resolution for small ones. Thread-safe.
public struct PhotoDecoder: Sendable {
    /// Images with more pixels are refused from their header, before decoding.
    public var maxPixels: Int
    /// Images with a side shorter than this are refused from their header.
    public var minSide: Int
    /// The thumbnail's width once upright.
    public var thumbnailWidth: Int
    /// The long edge a JPEG is shrunk towards while it is decoded.
    public var overviewEdge = 1000

    public init(maxPixels: Int, minSide: Int = 1, thumbnailWidth: Int) {
        self.maxPixels = maxPixels
        self.minSide = minSide
        self.thumbnailWidth = thumbnailWidth
    }

    /// The photo in `bytes`, decoded once. Throws `ImageError` for anything but a sound image of an
    /// accepted format within `maxPixels` and `minSide`.
    public func decode(_ bytes: [UInt8]) throws(ImageError) -> DecodedPhoto {
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
            let uprightWidth = orientation >= 5 ? height : width
            let shrink = shrinkOnLoad(width: width, height: height, uprightWidth: uprightWidth)
            guard format != .jpeg || shrink == 1 else {
                let overview = try VipsImage.open(bytes, format: format, shrink: shrink).decodedIntoMemory().eightBit()
                let (grey, thumbnail) = try overview.withPixels { pixels throws(ImageError) in
                    (pixels.greyBand(), try makeThumbnail(of: overview, pixels, orientation: orientation))
                }
                return DecodedPhoto(header: ImageHeader(header, format: format), overview: grey, shrink: shrink,
                                    thumbnail: try Thumbnail(thumbnail))
            }
            // Other formats cannot shrink while they load: decoded whole, then shrunk the same way by
            // area averaging, so barcodes and quality cost what a JPEG's do (a 12 MP HEIC read whole
            // cost ~0.3 s more than vipsthumbnail); the full-resolution grey stays for small codes.
            let image = try header.decodedIntoMemory().eightBit()
            return try image.withPixels { pixels throws(ImageError) in
                let full = pixels.greyBand()
                guard shrink > 1 else {
                    return DecodedPhoto(header: ImageHeader(header, format: format), overview: full, shrink: 1,
                                        thumbnail: try Thumbnail(try makeThumbnail(of: image, pixels, orientation: orientation)))
                }
                let (overviewWidth, overviewHeight) = (max(1, width / shrink), max(1, height / shrink))
                let shrunk = try pixels.shrunk(toWidth: overviewWidth, height: overviewHeight)
                return try shrunk.withImageBytes { bytes throws(ImageError) in
                    let small = PixelData(width: overviewWidth, height: overviewHeight, bands: pixels.bands, bytes: bytes)
                    return DecodedPhoto(header: ImageHeader(header, format: format), overview: small.greyBand(), shrink: shrink,
                                        thumbnail: try Thumbnail(try makeThumbnail(of: image, small, orientation: orientation)),
                                        fullResolution: full)
                }
            }
        }
    }

    /// The shrink factor (1, 2, 4 or 8; on load for a JPEG) that keeps the long edge at `overviewEdge` or
    /// more and the upright width at `thumbnailWidth` or more: the thumbnail is made from the
    /// overview, and must never be an enlargement of it.
    func shrinkOnLoad(width: Int, height: Int, uprightWidth: Int) -> Int {
        var shrink = 1
        // libvips 8.14 rounds a shrunk side down, and a side shrunk to nothing fails an assertion
        // that aborts the process (found by fuzzing: a 56128×3 JPEG): never shrink a side below 1 px.
        while shrink < 8, max(width, height) / (shrink * 2) >= overviewEdge, min(width, height) >= shrink * 2,
              uprightWidth / (shrink * 2) >= thumbnailWidth {
            shrink *= 2
        }
        return shrink
    }

    /// The thumbnail, `thumbnailWidth` wide once upright: shrunk from the overview's pixels by area
    /// averaging (a fifth of what libvips' resampling costs here, measured), then turned upright by
    /// libvips. A photo narrower than that keeps its own width: a thumbnail is never an enlargement.
    private func makeThumbnail(of image: VipsImage, _ pixels: PixelData, orientation: Int) throws(ImageError) -> VipsImage {
        let sideways = orientation >= 5
        let uprightWidth = sideways ? pixels.height : pixels.width
        let target = min(thumbnailWidth, uprightWidth)
        guard target < uprightWidth else { return try image.thumbnail(width: target) }
        let (width, height) = sideways
            ? (max(1, Int((Double(pixels.width) * Double(target) / Double(pixels.height)).rounded())), target)
            : (target, max(1, Int((Double(pixels.height) * Double(target) / Double(pixels.width)).rounded())))
        let shrunk = try pixels.shrunk(toWidth: width, height: height)
        return try shrunk.withImageBytes { bytes throws(ImageError) in
            try VipsImage.upright(PixelData(width: width, height: height, bands: pixels.bands, bytes: bytes),
                                  orientation: orientation)
        }
    }
}
