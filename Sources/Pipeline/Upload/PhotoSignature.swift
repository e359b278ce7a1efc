package import Vocabulary

/// The image format a file's first bytes announce, for the formats the pipeline decodes: what an
/// upload checks before it keeps a part (its name and Content-Type are the client's say, its bytes
/// are not). Decoding proper stays with the pipeline, which quarantines what only looks like a photo.
package enum PhotoSignature {
    /// Bytes enough to tell every format apart.
    package static let length = 12

    /// The format `prefix` (a file's first `length` bytes, or all of a shorter file) starts as; nil
    /// when it is none of them.
    package static func format(of prefix: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(prefix.prefix(length))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset ..< offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // ISO base media: a box size, then `ftyp` and a brand of HEIF's (HEIC from phones, AVIF).
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8 ..< 12], as: UTF8.self)
            if heifBrands.contains(brand) { return .heif }
        }
        return nil
    }

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]
}
