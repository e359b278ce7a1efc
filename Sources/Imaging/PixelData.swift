internal import CImageOps

/// 8-bit pixels borrowed for the length of a call, bands interleaved, rows top to bottom.
struct PixelData {
    var width: Int
    var height: Int
    var bands: Int
    var bytes: UnsafeRawBufferPointer

    /// One band as a grey image: green of RGB, which reads barcodes as well as luminance and costs
    /// no conversion; the only band of a grey image.
    func greyBand() -> GreyImage {
        var grey = [UInt8](repeating: 0, count: width * height)
        grey.withUnsafeMutableBufferPointer { out in
            ingest_extract_band(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height),
                                Int32(bands), bands >= 3 ? 1 : 0, out.baseAddress)
        }
        return GreyImage(width: width, height: height, pixels: grey)
    }

    /// The pixels shrunk to `width` × `height` (neither larger than now) by area averaging. Throws
    /// when the C code cannot have its working memory: the photo is refused, the run goes on.
    func shrunk(toWidth newWidth: Int, height newHeight: Int) throws(ImageError) -> [UInt8] {
        try shrunk(toWidth: newWidth, height: newHeight) { source, target in
            ingest_area_shrink(source, Int32(width), Int32(height), Int32(bands), target, Int32(newWidth), Int32(newHeight))
        }
    }

    /// The pixels resampled to `width` × `height` (neither larger than now) with Lanczos' kernel, as
    /// libvips resamples its thumbnails. `sourceShrink`: how many pixels of the original each of
    /// these is the mean of, each way (an overview shrunk 4 times: 4), whose blur is made up for.
    func resampled(toWidth newWidth: Int, height newHeight: Int, sourceShrink: Int) throws(ImageError) -> [UInt8] {
        try shrunk(toWidth: newWidth, height: newHeight) { source, target in
            ingest_resample(source, Int32(width), Int32(height), Int32(bands), target, Int32(newWidth), Int32(newHeight),
                            Int32(sourceShrink))
        }
    }

    private func shrunk(toWidth newWidth: Int, height newHeight: Int,
                        by shrink: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int32) throws(ImageError) -> [UInt8] {
        precondition(newWidth >= 1 && newWidth <= width && newHeight >= 1 && newHeight <= height)
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * bands)
        let status = out.withUnsafeMutableBufferPointer { target in
            shrink(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), target.baseAddress!)
        }
        guard status == 0 else {
            throw .undecodable("cannot shrink \(width)×\(height) pixels to \(newWidth)×\(newHeight): out of memory")
        }
        return out
    }
}
