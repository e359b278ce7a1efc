import CVips
import CVipsShim
import Foundation

/// The one place that calls libvips: loads a photo once and derives everything else from the decoded pixels.
///
/// No libvips pointer leaves this file; images are released on every path, including throws.
enum Vips {
    /// Starts libvips once per process. `concurrency` is libvips' own thread count per operation:
    /// the pipeline parallelises across photos, so 1 keeps the total bounded by the worker count.
    static func start(concurrency: Int = 1) throws {
        try startOnce(concurrency)
    }

    private static let startLock = NSLock()
    nonisolated(unsafe) private static var started = false

    private static func startOnce(_ concurrency: Int) throws {
        startLock.lock()
        defer { startLock.unlock() }
        guard !started else { return }
        guard ingest_vips_start(Int32(concurrency)) == 0 else {
            throw PhotoError.library("libvips did not start: \(lastError())")
        }
        started = true
    }

    /// The loader libvips would use for these bytes, if it is one the pipeline accepts.
    static func format(of bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard let base = bytes.baseAddress, let name = ingest_loader_for(base, bytes.count) else { return nil }
        return ImageFormat(loaderName: String(cString: name))
    }

    /// libvips' error text for the last failure on any thread, cleared afterwards.
    static func lastError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { g_free(copy) }
        let text = String(cString: copy).split(whereSeparator: \.isNewline).joined(separator: "; ")
        return text.isEmpty ? "unknown libvips error" : text
    }
}

/// A libvips image owned by Swift: released when the last reference goes.
final class VipsImage {
    fileprivate let pointer: UnsafeMutablePointer<CVips.VipsImage>

    fileprivate init(_ pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }

    /// The EXIF orientation tag libvips read (1…8), 1 when there is none.
    var orientation: Int {
        var value: Int32 = 1
        guard vips_image_get_typeof(pointer, "orientation") != 0,
              vips_image_get_int(pointer, "orientation", &value) == 0, (1...8).contains(value) else { return 1 }
        return Int(value)
    }

    /// The raw EXIF block (starting with `Exif\0\0`) the loader found, if any.
    var exifBlob: [UInt8]? {
        guard vips_image_get_typeof(pointer, "exif-data") != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, "exif-data", &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Opens `bytes` lazily (header only); `shrink` is applied while decoding a JPEG.
    /// The bytes must stay alive until `decodedIntoMemory()` has run.
    static func open(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, shrink: Int) throws -> VipsImage {
        try make("cannot read the image") { out in
            ingest_load(bytes.baseAddress, bytes.count, format == .jpeg ? 1 : 0, Int32(shrink), &out)
        }
    }

    /// A thumbnail `width` pixels wide decoded straight from `bytes` with shrink-on-load, upright per
    /// the EXIF orientation. Lazy: the bytes must stay alive until it is encoded.
    static func thumbnail(of bytes: UnsafeRawBufferPointer, width: Int) throws -> VipsImage {
        try make("cannot make the thumbnail") { out in
            ingest_thumbnail_buffer(bytes.baseAddress, bytes.count, Int32(width), &out)
        }
    }

    /// A one-band image of `grey`'s pixels (copied into libvips).
    static func image(of grey: GreyImage) throws -> VipsImage {
        let copy = grey.pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(grey.width), Int32(grey.height), 1,
                                            VIPS_FORMAT_UCHAR)
        }
        guard let copy else { throw PhotoError.undecodable(Vips.lastError()) }
        return VipsImage(copy)
    }

    /// Decodes every pixel once into memory; fails on truncated or corrupt data.
    func decodedIntoMemory() throws -> VipsImage {
        guard let copy = vips_image_copy_memory(pointer) else {
            throw PhotoError.undecodable(Vips.lastError())
        }
        return VipsImage(copy)
    }

    /// One 8-bit band for barcodes and quality metrics.
    func grey() throws -> VipsImage {
        try Self.make("cannot make a greyscale image") { ingest_grey(pointer, &$0) }
    }

    /// A thumbnail `width` pixels wide, upright per the EXIF orientation.
    func thumbnail(width: Int) throws -> VipsImage {
        try Self.make("cannot make the thumbnail") { ingest_thumbnail(pointer, Int32(width), &$0) }
    }

    /// The image scaled by `scale`.
    func resized(by scale: Double) throws -> VipsImage {
        try Self.make("cannot resize") { ingest_resize(pointer, scale, &$0) }
    }

    /// A region of this one-band image, turned by `angle` degrees and scaled by `scale`; with
    /// `smoothRows` > 1 averaged over that many rows, along upright bars.
    func region(_ box: PixelBox, angle: Double, scale: Double, smoothRows: Int) throws -> VipsImage {
        try Self.make("cannot cut out a region") {
            ingest_region(pointer, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height), angle, scale,
                          Int32(smoothRows), &$0)
        }
    }

    /// The image as JPEG bytes without metadata.
    func jpeg(quality: Int) throws -> [UInt8] {
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard ingest_jpeg_save(pointer, Int32(quality), &data, &length) == 0, let data else {
            throw PhotoError.undecodable("cannot encode the thumbnail: \(Vips.lastError())")
        }
        defer { g_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The pixels of a one-band 8-bit image, row by row.
    func pixels() throws -> GreyImage {
        var length = 0
        guard let data = vips_image_write_to_memory(pointer, &length) else {
            throw PhotoError.undecodable(Vips.lastError())
        }
        defer { g_free(data) }
        precondition(length == width * height, "pixels() needs a one-band 8-bit image")
        return GreyImage(width: width, height: height,
                         pixels: Array(UnsafeRawBufferPointer(start: data, count: length)))
    }

    private static func make(_ what: String, _ call: (inout UnsafeMutablePointer<CVips.VipsImage>?) -> Int32) throws -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard call(&out) == 0, let out else {
            throw PhotoError.undecodable("\(what): \(Vips.lastError())")
        }
        return VipsImage(out)
    }
}

/// An 8-bit single-band picture in memory, rows top to bottom.
public struct GreyImage: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// The image formats the pipeline accepts; anything else is quarantined as "not a supported image".
public enum ImageFormat: String, Sendable {
    case jpeg, png, webp, tiff, heif

    init?(loaderName: String) {
        // libvips answers with the loader's type name, e.g. VipsForeignLoadJpegBuffer.
        switch loaderName {
        case "VipsForeignLoadJpegBuffer": self = .jpeg
        case "VipsForeignLoadPngBuffer": self = .png
        case "VipsForeignLoadWebpBuffer": self = .webp
        case "VipsForeignLoadTiffBuffer": self = .tiff
        case "VipsForeignLoadHeifBuffer": self = .heif
        default: return nil
        }
    }
}
