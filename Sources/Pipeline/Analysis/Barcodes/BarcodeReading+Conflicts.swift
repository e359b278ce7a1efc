import Imaging
import Vocabulary

extension [BarcodeReading] {
    /// The reads of one scan without those that a read of another linear code contradicts.
    ///
    /// One code is printed across a set of bars: two different codes read across the same bars, on
    /// different scan lines, mean the scan is misreading them (blurred, worn or misprinted bars read
    /// as several codes, any of which may pass the check digit by luck). Every such read is dropped,
    /// however many lines agreed on it: on a turned, enlarged and smoothed region the lines are
    /// alike, so their count is no evidence. QR codes correct their own errors and are kept.
    func withoutConflicts() -> [BarcodeReading] {
        filter { !isConflicted($0) }
    }

    /// The reads `withoutConflicts()` drops.
    func conflicted() -> [BarcodeReading] {
        filter(isConflicted)
    }

    private func isConflicted(_ reading: BarcodeReading) -> Bool {
        reading.symbology != .qr && contains { other in
            other.symbology != .qr && other.productKey != reading.productKey && other.box.sharesBars(with: reading.box)
        }
    }
}

extension PixelBox {
    /// True when two read boxes lie across the same bars: ZBar's box of a linear code spans the
    /// code's length and the scan lines that read it, so two reads of one code overlap along their
    /// length and lie within a code's length of each other across it.
    func sharesBars(with other: PixelBox) -> Bool {
        func overlap(_ a: Int, _ aLength: Int, _ b: Int, _ bLength: Int) -> Int {
            min(a + aLength, b + bLength) - max(a, b)
        }
        func gap(_ a: Int, _ aLength: Int, _ b: Int, _ bLength: Int) -> Int {
            max(a, b) - min(a + aLength, b + bLength)
        }
        let horizontal = width >= height && other.width >= other.height
        let vertical = height >= width && other.height >= other.width
        if horizontal {
            return overlap(x, width, other.x, other.width) * 2 >= Swift.min(width, other.width)
                && gap(y, height, other.y, other.height) <= Swift.max(width, other.width) / 2
        }
        if vertical {
            return overlap(y, height, other.y, other.height) * 2 >= Swift.min(height, other.height)
                && gap(x, width, other.x, other.width) <= Swift.max(height, other.height) / 2
        }
        return overlap(x, width, other.x, other.width) > 0 && overlap(y, height, other.y, other.height) > 0
    }
}
