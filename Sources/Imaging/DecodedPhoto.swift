/// What one decode of a photo yields.
package struct DecodedPhoto: Sendable {
    package var header: ImageHeader
    /// The photo's grey pixels at overview size: the green band of RGB, which reads barcodes about
    /// as well as luminance and costs no conversion (not always: zxing-cpp reads a few real photos'
    /// codes on luminance and not on the green band).
    package var overview: GreyImage
    /// How many original pixels one overview pixel spans, each way.
    package var shrink: Int
    package var thumbnail: Thumbnail
    /// The grey pixels at full resolution, when the photo was shrunk after decoding (formats without
    /// shrink-on-load: HEIC, PNG, WebP…) and so is in memory anyway; a JPEG's are decoded again by
    /// region (`JPEGRegion`) instead.
    package var fullResolution: GreyImage?

    /// The grey pixels of `box` (full-resolution coordinates) and the rectangle they cover: from
    /// `fullResolution` when the decode kept it, else decoded again from the JPEG `bytes`.
    package func fullResolution(_ box: PixelBox, from bytes: [UInt8]) throws(ImageError) -> (pixels: GreyImage, origin: PixelBox) {
        guard let full = fullResolution else { return try JPEGRegion.grey(bytes, box: box) }
        let inside = box.clamped(width: full.width, height: full.height)
        return (full.cropped(to: inside), inside)
    }
}
