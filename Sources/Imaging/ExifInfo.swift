internal import CExif
import Foundation

/// The EXIF fields the pipeline uses, read with libexif. Every libexif call is in this file.
package struct ExifInfo: Equatable, Sendable {
    package var dateTimeOriginal: String?
    package var subSecTimeOriginal: String?
    /// OffsetTimeOriginal (0x9011), falling back to OffsetTime (0x9010).
    package var offset: String?
    package var orientation: Int?
    package var make: String?
    package var model: String?

    /// Parses an EXIF block as libvips hands it over: `Exif\0\0` then TIFF data from JPEG and HEIC,
    /// bare TIFF data from PNG and WebP. Nil when it holds nothing usable.
    package init?(block: [UInt8]) {
        guard !block.isEmpty, let data = exif_data_new() else { return nil }
        // libexif only recognises a block that starts with the JPEG APP1 header.
        let header: [UInt8] = Array("Exif".utf8) + [0, 0]
        let block = block.starts(with: header) ? block : header + block
        defer { exif_data_unref(data) }
        // No "fixing" to the specification: libexif would otherwise invent mandatory tags
        // (a DateTime of now) and drop tags it does not know.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        block.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        let order = exif_data_get_byte_order(data)
        let ifd0 = data.pointee.ifd.0
        let exifIFD = data.pointee.ifd.2
        dateTimeOriginal = Self.text(exifIFD, 0x9003)
        subSecTimeOriginal = Self.text(exifIFD, 0x9291)
        offset = Self.text(exifIFD, 0x9011) ?? Self.text(exifIFD, 0x9010)
        make = Self.text(ifd0, 0x010F)
        model = Self.text(ifd0, 0x0110)
        if let entry = Self.entry(ifd0, 0x0112), entry.pointee.format == EXIF_FORMAT_SHORT,
           entry.pointee.components >= 1, entry.pointee.size >= 2, let bytes = entry.pointee.data {
            orientation = Int(exif_get_short(bytes, order))
        }
        if dateTimeOriginal == nil, orientation == nil, make == nil, model == nil { return nil }
    }

    package init(dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, offset: String? = nil,
         orientation: Int? = nil, make: String? = nil, model: String? = nil) {
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offset = offset
        self.orientation = orientation
        self.make = make
        self.model = model
    }

    private static func entry(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
        guard let content else { return nil }
        return exif_content_get_entry(content, ExifTag(rawValue: tag))
    }

    /// An ASCII entry without its NUL terminator and padding; nil when absent, not ASCII or blank.
    private static func text(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> String? {
        guard let entry = entry(content, tag), entry.pointee.format == EXIF_FORMAT_ASCII,
              let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        let count = min(Int(entry.pointee.size), 256)
        let raw = UnsafeBufferPointer(start: bytes, count: count).prefix { $0 != 0 }
        let value = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
