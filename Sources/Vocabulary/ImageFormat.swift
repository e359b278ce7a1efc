/// The image formats the pipeline accepts, named after the loader that decodes them; stored by
/// raw value. Anything else is quarantined as "not an image in a supported format".
package enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case jpeg, png, webp, tiff, heif
}
