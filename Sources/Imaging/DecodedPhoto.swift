/// What one decode of a photo yields.
public struct DecodedPhoto: Sendable {
    public var header: ImageHeader
    /// The photo's grey pixels at overview size: the green band of RGB, which reads barcodes as well
    /// as luminance and costs no conversion.
    public var overview: GreyImage
    /// How many original pixels one overview pixel spans, each way.
    public var shrink: Int
    public var thumbnail: Thumbnail
}
