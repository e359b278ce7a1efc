import Foundation

/// The part of a file a `Range` header asks for (RFC 9110 §14): one range of bytes. Several ranges
/// at once are answered with the whole file, which the standard allows.
enum ByteRange: Equatable {
    /// Send the whole file (no header, several ranges, or a unit other than bytes).
    case whole
    /// Send these bytes (inclusive bounds).
    case part(ClosedRange<Int64>)
    /// Nothing of a file this size is in the range: 416.
    case unsatisfiable

    /// What `header` asks of a file of `size` bytes: `bytes=0-99`, `bytes=100-` (to the end),
    /// `bytes=-100` (the last 100).
    init(header: String?, size: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes="), !trimmed.contains(",") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-") else { self = .unsatisfiable; return }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        switch (Int64(first), Int64(last)) {
        case let (start?, end?) where start >= 0 && start <= end:
            self = start < size ? .part(start ... min(end, size - 1)) : .unsatisfiable
        case let (start?, nil) where last.isEmpty && start >= 0:
            self = start < size ? .part(start ... size - 1) : .unsatisfiable
        case let (nil, suffix?) where first.isEmpty && suffix > 0:
            self = size > 0 ? .part(max(0, size - suffix) ... size - 1) : .unsatisfiable
        default:
            self = .unsatisfiable
        }
    }
}
