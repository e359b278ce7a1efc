import Foundation
import TestSupport

/// Turns a valid file into a hostile one with a few random mutations, some blind (bit flips, byte
/// runs, truncation, a slice copied elsewhere), some aware of the format (a JPEG segment or PNG chunk
/// duplicated or dropped, an EXIF entry's count or offset set to a lie). Deterministic for a seed.
struct ByteMutator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// `bytes` with one to four mutations.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0 ..< Int.random(in: 1 ... 4, using: &random) where !result.isEmpty {
            switch Int.random(in: 0 ..< 8, using: &random) {
            case 0: flipBits(&result)
            case 1: overwriteRun(&result)
            case 2: writeInterestingNumber(&result, at: Int.random(in: 0 ..< result.count, using: &random))
            case 3: result = Array(result.prefix(Int.random(in: 0 ..< result.count, using: &random)))
            case 4: copySlice(&result)
            case 5: duplicateOrDropSegment(&result)
            default: lieInExif(&result)
            }
        }
        return result
    }

    private mutating func flipBits(_ bytes: inout [UInt8]) {
        for _ in 0 ..< Int.random(in: 1 ... 8, using: &random) {
            bytes[Int.random(in: 0 ..< bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0 ..< 8, using: &random)
        }
    }

    private mutating func overwriteRun(_ bytes: inout [UInt8]) {
        let start = Int.random(in: 0 ..< bytes.count, using: &random)
        let end = min(bytes.count, start + Int.random(in: 1 ... 64, using: &random))
        let fill = [0x00, 0xFF, 0x7F, UInt8.random(in: 0 ... 255, using: &random)].randomElement(using: &random)!
        let noise = Bool.random(using: &random)
        for index in start ..< end { bytes[index] = noise ? UInt8.random(in: 0 ... 255, using: &random) : fill }
    }

    /// A count, length or offset a parser may trust: zero, one, a sign boundary, all ones, past the end.
    private mutating func writeInterestingNumber(_ bytes: inout [UInt8], at index: Int) {
        let values: [UInt32] = [0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
                                UInt32(bytes.count), UInt32(bytes.count) &+ 1, UInt32(index)]
        let value = values.randomElement(using: &random)!
        let width = [1, 2, 4].randomElement(using: &random)!
        let bigEndian = Bool.random(using: &random)
        for byte in 0 ..< width where index + byte < bytes.count {
            let shift = bigEndian ? 8 * (width - 1 - byte) : 8 * byte
            bytes[index + byte] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
    }

    private mutating func copySlice(_ bytes: inout [UInt8]) {
        let start = Int.random(in: 0 ..< bytes.count, using: &random)
        let slice = bytes[start ..< min(bytes.count, start + Int.random(in: 1 ... 512, using: &random))]
        bytes.insert(contentsOf: slice, at: Int.random(in: 0 ... bytes.count, using: &random))
    }

    /// Duplicates or drops one JPEG marker segment or PNG chunk, the units their parsers walk.
    private mutating func duplicateOrDropSegment(_ bytes: inout [UInt8]) {
        let units = Self.jpegSegments(bytes) + Self.pngChunks(bytes)
        guard let unit = units.randomElement(using: &random) else { return copySlice(&bytes) }
        if Bool.random(using: &random) {
            bytes.insert(contentsOf: bytes[unit], at: unit.upperBound)
        } else {
            bytes.removeSubrange(unit)
        }
    }

    /// Sets the count or the value/offset field of a TIFF IFD entry (EXIF, in a JPEG's APP1, a PNG's
    /// eXIf, a WebP's EXIF chunk or a bare block) to an interesting number, or points an IFD at itself.
    private mutating func lieInExif(_ bytes: inout [UInt8]) {
        let fields = Self.exifFields(bytes)
        guard let field = fields.randomElement(using: &random) else { return flipBits(&bytes) }
        writeInterestingNumber(&bytes, at: field)
    }

    /// The marker segments of a JPEG before its scan data (APPn, DQT, SOF, DHT…), length included.
    static func jpegSegments(_ bytes: [UInt8]) -> [Range<Int>] {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return [] }
        var segments: [Range<Int>] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            let end = index + 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            guard end <= bytes.count else { break }
            segments.append(index ..< end)
            index = end
        }
        return segments
    }

    /// The chunks of a PNG (length, type, data, CRC).
    static func pngChunks(_ bytes: [UInt8]) -> [Range<Int>] {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return [] }
        var chunks: [Range<Int>] = []
        var index = 8
        while index + 12 <= bytes.count {
            let length = bytes[index ..< index + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = index + 12 + length
            guard end <= bytes.count else { break }
            chunks.append(index ..< end)
            index = end
        }
        return chunks
    }

    /// Offsets of the count and value fields of every entry in the IFDs of each TIFF header
    /// (`II*\0` or `MM\0*`) found in `bytes`, and of each IFD's next-IFD offset.
    static func exifFields(_ bytes: [UInt8]) -> [Int] {
        var fields: [Int] = []
        var start = 0
        while start + 8 <= bytes.count, fields.count < 512 {
            let little = bytes[start] == 0x49 && bytes[start + 1] == 0x49 && bytes[start + 2] == 0x2A && bytes[start + 3] == 0
            let big = bytes[start] == 0x4D && bytes[start + 1] == 0x4D && bytes[start + 2] == 0 && bytes[start + 3] == 0x2A
            guard little || big else {
                start += 1
                continue
            }
            func number(_ at: Int, _ width: Int) -> Int? {
                guard at >= 0, at + width <= bytes.count else { return nil }
                let raw = bytes[at ..< at + width]
                return (little ? raw.reversed() : Array(raw)).reduce(0) { $0 << 8 | Int($1) }
            }
            // IFD0, the next IFDs, and the EXIF, GPS and interoperability sub-IFDs.
            var pending = number(start + 4, 4).map { [start + $0] } ?? []
            var visited = Set<Int>()
            while let offset = pending.popLast(), visited.count < 16 {
                guard visited.insert(offset).inserted, let count = number(offset, 2), count < 256 else { continue }
                for entry in 0 ..< count {
                    let at = offset + 2 + 12 * entry
                    guard at + 12 <= bytes.count else { break }
                    fields += [at + 4, at + 8]
                    if let tag = number(at, 2), [0x8769, 0x8825, 0xA005].contains(tag), let sub = number(at + 8, 4) {
                        pending.append(start + sub)
                    }
                }
                fields.append(offset + 2 + 12 * count)
                if let next = number(offset + 2 + 12 * count, 4), next != 0 { pending.append(start + next) }
            }
            start += 4
        }
        return fields
    }
}
