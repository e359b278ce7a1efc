internal import CVips
internal import CVipsShim
internal import CImageOps
import Vocabulary

/// A libvips image owned by Swift: released when the last reference goes. Used by one thread at a time.
final class VipsImage {
    private let pointer: UnsafeMutablePointer<CVips.VipsImage>

    private init(_ pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        ingest_unref(UnsafeMutableRawPointer(pointer))
    }

    var width: Int { Int(ingest_image_width(pointer)) }
    var height: Int { Int(ingest_image_height(pointer)) }

    /// The EXIF orientation tag libvips read (1…8), 1 when there is none.
    var orientation: Int {
        var value: Int32 = 1
        guard ingest_image_int(pointer, "orientation", &value) == 0, (1...8).contains(value) else { return 1 }
        return Int(value)
    }

    /// The raw EXIF block (starting with `Exif\0\0`) the loader found, if any.
    var exifBlob: [UInt8]? {
        var data: UnsafeRawPointer?
        var length = 0
        guard ingest_image_blob(pointer, "exif-data", &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Opens `bytes` lazily (header only); `shrink` is applied while decoding a JPEG.
    /// The bytes must stay alive until its pixels have been read.
    static func open(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, shrink: Int) throws(ImageError) -> VipsImage {
        try make("cannot read the image") { out in
            ingest_load(bytes.baseAddress, bytes.count, format == .jpeg ? 1 : 0, Int32(shrink), &out)
        }
    }

    /// A thumbnail `width` pixels wide decoded straight from `bytes` with shrink-on-load, upright per
    /// the EXIF orientation. Lazy: the bytes must stay alive until it is encoded.
    static func thumbnail(of bytes: UnsafeRawBufferPointer, width: Int) throws(ImageError) -> VipsImage {
        try make("cannot make the thumbnail") { out in
            ingest_thumbnail_buffer(bytes.baseAddress, bytes.count, Int32(width), &out)
        }
    }

    /// A copy of `bytes`' image whose long edge is `edge` pixels, enlarged or shrunk (with
    /// shrink-on-load), upright per the EXIF orientation. Lazy, as `thumbnail` is.
    static func fittedCopy(of bytes: UnsafeRawBufferPointer, edge: Int) throws(ImageError) -> VipsImage {
        try make("cannot make a copy to read") { out in
            ingest_fitted_copy_buffer(bytes.baseAddress, bytes.count, Int32(edge), &out)
        }
    }

    /// The image as 8-bit sRGB (3 bands) or grey (1 band), lazily: itself when it is that already
    /// (as a decoded JPEG is); otherwise CMYK is converted, 16 bits shifted down and alpha
    /// flattened on white.
    func eightBit() throws(ImageError) -> VipsImage {
        let bands = ingest_image_bands(pointer)
        if ingest_image_is_uchar(pointer) != 0, bands == 1 || bands == 3, ingest_image_is_cmyk(pointer) == 0 {
            return self
        }
        return try Self.make("cannot convert to 8-bit RGB") { ingest_eight_bit(pointer, &$0) }
    }

    /// One pass over the rows of an 8-bit image (`eightBit`), top to bottom, that never holds the
    /// image whole: its grey pixels (the green band of RGB) at full size, and the image shrunk to
    /// `newWidth` × `newHeight` by area averaging (an overview) or, `resampling`, with Lanczos'
    /// kernel (a thumbnail; its value is `PixelData.resampled`'s `sourceShrink`). A HEIC is decoded
    /// whole by libheif, so a second full-size copy in libvips' memory would add its decoded size
    /// again (146 MB for 48 MP).
    func greyAndShrunk(toWidth newWidth: Int, height newHeight: Int,
                       resampling sourceShrink: Int? = nil) throws(ImageError) -> (grey: GreyImage, shrunk: [UInt8], bands: Int) {
        let bands = Int(ingest_image_bands(pointer))
        guard ingest_image_is_uchar(pointer) != 0, bands == 1 || bands == 3 else {
            throw ImageError.undecodable("cannot read the pixels: \(bands) bands, not 8-bit grey or RGB")
        }
        let (width, height) = (self.width, self.height)
        var failure: String?
        var shrunk: [UInt8] = []
        // Filled as the rows pass, never zeroed first: the grey's pages are not yet resident while
        // libheif's decode, which the first row waits for, is at its peak.
        let grey = [UInt8](unsafeUninitializedCapacity: width * height) { grey, greyCount in
            shrunk = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight * bands) { out, outCount in
                failure = passRows(grey: grey.baseAddress!, bands: bands, into: out.baseAddress!, newWidth: newWidth, newHeight: newHeight,
                                   resampling: sourceShrink)
                outCount = failure == nil ? newWidth * newHeight * bands : 0
            }
            greyCount = failure == nil ? width * height : 0
        }
        if let failure { throw ImageError.undecodable(failure) }
        return (GreyImage(width: width, height: height, pixels: grey), shrunk, bands)
    }

    /// `greyAndShrunk`'s pass; why it failed, or nil.
    private func passRows(grey: UnsafeMutablePointer<UInt8>, bands: Int, into out: UnsafeMutablePointer<UInt8>,
                          newWidth: Int, newHeight: Int, resampling sourceShrink: Int?) -> String? {
        // The two row passes of CImageOps, one shape: made, fed every row, asked whether it finished, freed.
        let band: Int32 = bands == 3 ? 1 : 0
        let rows = sourceShrink.map {
            ingest_row_resample_new(Int32(width), Int32(height), Int32(bands), out, Int32(newWidth), Int32(newHeight), Int32($0),
                                    grey, band)
        } ?? ingest_row_shrink_new(Int32(width), Int32(height), Int32(bands), out, Int32(newWidth), Int32(newHeight), grey, band)
        let take: IngestTakeRows = sourceShrink == nil ? ingest_row_shrink_take : ingest_row_resample_take
        let (finished, free) = sourceShrink == nil
            ? (ingest_row_shrink_finished, ingest_row_shrink_free) : (ingest_row_resample_finished, ingest_row_resample_free)
        guard let rows else {
            return "cannot \(sourceShrink == nil ? "shrink" : "resample") \(width)×\(height) pixels to \(newWidth)×\(newHeight): out of memory"
        }
        defer { free(rows) }
        ingest_vips_warning_clear()
        guard ingest_image_rows(pointer, take, UnsafeMutableRawPointer(rows)) == 0, finished(rows) != 0 else { return Vips.lastError() }
        return nil
    }

    /// An image of `pixels` (1 or 3 bands, copied into libvips), turned upright per the EXIF `orientation`.
    static func upright(_ pixels: PixelData, orientation: Int) throws(ImageError) -> VipsImage {
        try make("cannot make an image") {
            ingest_image_from_pixels(pixels.bytes.baseAddress, Int32(pixels.width), Int32(pixels.height),
                                     Int32(pixels.bands), Int32(orientation), &$0)
        }
    }

    /// The image as JPEG bytes without metadata.
    func jpeg(quality: Int) throws(ImageError) -> [UInt8] {
        var data: UnsafeMutableRawPointer?
        var length = 0
        ingest_vips_warning_clear()
        guard ingest_jpeg_save(pointer, Int32(quality), &data, &length) == 0, let data else {
            throw ImageError.undecodable("cannot encode the thumbnail: \(Vips.lastError())")
        }
        defer { ingest_vips_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    private static func make(_ what: String, _ call: (inout UnsafeMutablePointer<CVips.VipsImage>?) -> Int32) throws(ImageError) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        ingest_vips_warning_clear()
        guard call(&out) == 0, let out else {
            throw ImageError.undecodable("\(what): \(Vips.lastError())")
        }
        return VipsImage(out)
    }
}
