internal import SystemPackage
import Foundation

/// The lines of a byte stream, read in large chunks and handed out without copying: each line is
/// valid until the next call. Memory is the chunk, grown up to `maximumLine` for a long line; a
/// longer line is skipped whole and reported as `.tooLong`. A final line without a line end is a
/// line; a carriage return before a line end is dropped.
final class LineReader {
    enum Line {
        case text(UnsafeBufferPointer<UInt8>)
        case tooLong
    }

    private let input: DumpInput
    /// The dump's path, for messages.
    var path: String { input.path.string }
    let maximumLine: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of the line last returned, from 1.
    private(set) var lineNumber = 0
    /// Uncompressed bytes read so far.
    private(set) var bytesRead = 0

    init(input: DumpInput, chunkSize: Int = 1 << 20, maximumLine: Int = 16 << 20) {
        self.input = input
        self.maximumLine = maximumLine
        capacity = chunkSize
        buffer = .allocate(capacity: chunkSize)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next line, or nil at the end of the stream.
    func next() throws -> Line? {
        while true {
            if let newline = memchr(buffer + start, 10, end - start) {
                let lineEnd = newline.assumingMemoryBound(to: UInt8.self) - buffer
                defer { start = lineEnd + 1 }
                return .text(line(upTo: lineEnd))
            }
            if atEnd {
                guard start < end else { return nil }
                defer { start = end }
                return .text(line(upTo: end))
            }
            if end - start == maximumLine { return try skipLongLine() }
            try fill()
        }
    }

    private func line(upTo lineEnd: Int) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        let length = lineEnd > start && buffer[lineEnd - 1] == 13 ? lineEnd - 1 - start : lineEnd - start
        return UnsafeBufferPointer(start: buffer + start, count: length)
    }

    /// Reads more after what is left, moving it to the front and growing the buffer if it is full.
    private func fill() throws {
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        if end == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: min(capacity * 2, maximumLine))
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity = min(capacity * 2, maximumLine)
        }
        let count = try input.read(into: buffer + end, count: capacity - end)
        if count == 0 { atEnd = true }
        end += count
        bytesRead += count
    }

    /// Drops the line that filled the buffer, up to its line end.
    private func skipLongLine() throws -> Line {
        lineNumber += 1
        while true {
            start = 0
            end = 0
            try fill()
            if atEnd { return .tooLong }
            if let newline = memchr(buffer, 10, end) {
                start = newline.assumingMemoryBound(to: UInt8.self) - buffer + 1
                return .tooLong
            }
        }
    }
}
