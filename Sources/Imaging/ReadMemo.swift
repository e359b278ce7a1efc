import Foundation

/// What the decoders gave on images already read, for reading one photo again with other rules
/// (`ingest explain` with many rule sets, how bench/fit_rules.py tries 128 of them): the decoders
/// and the template fit are the costly part of reading, and the rules only decide what to make of
/// their results. An entry is found by the image's exact pixels and what read it, never by a
/// digest, so a result is only ever reused for the same input. For one photo at a time: it keeps
/// every image read until it is dropped.
///
/// A ZBar scanner keeps some state from one image to the next (`BarcodeScanner`), and a reader
/// whose scans are found here has not scanned the images before them. That changed nothing seen:
/// 164 development photos read with 4 sets of rules each, and ExplainTests' photos with 3, gave
/// every set the explanation a reader without the memo gives, byte for byte.
// @unchecked: its two tables are read and written only inside `lock`; what they hold (grey images,
// read results) is immutable once stored.
package final class ReadMemo: @unchecked Sendable {
    private struct Key: Hashable {
        let reader: String
        let width: Int
        let height: Int
        let pixels: [UInt8]

        func hash(into hasher: inout Hasher) {
            hasher.combine(reader)
            hasher.combine(width)
            hasher.combine(height)
            // The bytes at once: element by element, hashing took longer than the reads it spared.
            pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// A region of an image (`GreyImage.region`), the image known by its pixels' storage, which
    /// the entry keeps alive: no other image can have that storage while the memo holds it.
    private struct RegionKey: Hashable {
        let storage: UInt
        let width, height: Int
        let x, y, boxWidth, boxHeight: Int
        let angle, scale: Double
        let smoothRows: Int
    }

    private let lock = NSLock()
    private var results: [Key: Any] = [:]
    private var regions: [RegionKey: (source: GreyImage, region: GreyImage)] = [:]

    package init() {}

    /// What `reader` (a decoder and its settings) gave on `image`, made by `read` the first time.
    package func value<T>(_ reader: String, _ image: GreyImage, read: () -> T) -> T {
        let key = Key(reader: reader, width: image.width, height: image.height, pixels: image.pixels)
        if let done = lock.withLock({ results[key] }) as? T { return done }
        let value = read()
        lock.withLock { results[key] = value }
        return value
    }

    /// `image.region(box, angle:scale:smoothRows:)`, cut out once.
    package func region(of image: GreyImage, _ box: PixelBox, angle: Double, scale: Double, smoothRows: Int) throws(ImageError) -> GreyImage {
        let storage = image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let key = RegionKey(storage: storage, width: image.width, height: image.height, x: box.x, y: box.y,
                            boxWidth: box.width, boxHeight: box.height, angle: angle, scale: scale, smoothRows: smoothRows)
        if let done = lock.withLock({ regions[key] }) { return done.region }
        let region = try image.region(box, angle: angle, scale: scale, smoothRows: smoothRows)
        lock.withLock { regions[key] = (image, region) }
        return region
    }
}
