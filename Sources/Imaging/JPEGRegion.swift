internal import CJPEGShim
import Foundation

/// The one place that calls libjpeg-turbo directly: full-resolution luminance of one region of a
/// JPEG, for barcodes too fine for the overview. libvips cannot skip rows or columns, so it would
/// decode every pixel above the region in colour; this decodes only what the region needs.
package enum JPEGRegion {
    /// The grey pixels of `box` (stored, not rotated, full-resolution coordinates), and where they
    /// lie: the crop widens to whole JPEG blocks, so the result may start left of `box` and be wider.
    package static func grey(_ jpeg: [UInt8], box: PixelBox) throws(ImageError) -> (pixels: GreyImage, origin: PixelBox) {
        var region = ingest_grey_region()
        var message = [CChar](repeating: 0, count: 256)
        let status = jpeg.withUnsafeBytes { bytes in
            ingest_jpeg_grey_region(bytes.baseAddress, bytes.count, Int32(box.x), Int32(box.y), Int32(box.width),
                                      Int32(box.height), &region, &message, message.count)
        }
        guard status == 0, let pixels = region.pixels else {
            throw ImageError.undecodable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(pixels) }
        let width = Int(region.width), height = Int(region.height)
        let grey = GreyImage(width: width, height: height,
                             pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height)))
        return (grey, PixelBox(x: Int(region.left), y: Int(region.top), width: width, height: height))
    }
}
