import Foundation

/// The pixel size a baseline or progressive JPEG declares in its SOF segment; nil when `bytes`
/// is not a JPEG or has no frame header. Read independently of libvips, to check what it wrote.
public func jpegFrameSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var index = 2
    while index + 9 < bytes.count {
        guard bytes[index] == 0xFF else { return nil }
        let marker = bytes[index + 1]
        if marker == 0xFF { index += 1; continue }
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
            let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
            let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
            return (width, height)
        }
        index += 2 + length
    }
    return nil
}

/// The frame size of the JPEG file at `url`.
public func jpegFrameSize(of url: URL) throws -> (width: Int, height: Int)? {
    jpegFrameSize([UInt8](try Data(contentsOf: url)))
}
