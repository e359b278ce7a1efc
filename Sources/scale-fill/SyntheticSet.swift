import Catalog
import Foundation
import Imaging
import SystemPackage
import Vocabulary
import FileSystem

/// The rows of synthetic sets: deterministic, so every fill of the same size is the same catalogue.
struct SyntheticSet {
    var photosPerCapture: Int
    var byteSize: Int64
    var modified: timespec
    var thumbWidth: Int
    var thumbHeight: Int
    var uniqueOriginals: Bool

    /// Twenty agents, and most captures without one, as a few apps would send them.
    static let agents = (0 ..< 20).map { "agent-\($0)" }
    static let start = 1_767_225_600.0  // 2026-01-01T00:00:00Z

    /// Set `number` with `captures` captures, each `photosPerCapture` photos; four in five with an
    /// EAN-13, one set in three for an agent; captures half a minute apart.
    func set(_ number: Int, captures: Int) -> CommittedSet {
        let name = "set-" + pad(number, 6)
        let agent = number % 3 == 0 ? Self.agents[number % Self.agents.count] : nil
        var result = CommittedSet(captures: [], photos: [], hits: [])
        result.agent = agent.map { Agent(id: $0, name: $0, firstSeen: "2026-01-01T00:00:00Z", lastSeen: "2026-01-01T00:00:00Z") }
        for index in 0 ..< captures {
            let serial = number * ScaleFill.setSize + index
            let id = hex(serial, 8) + "-0000-4000-8000-" + hex(serial, 12)
            let utc = Self.start + Double(serial) * 31.0
            let code = serial % 5 == 4 ? nil : ean13(serial)
            let rating = Rating.allCases[serial % Rating.allCases.count]
            result.captures.append(Capture(
                id: id, runId: nil, setName: name, barcode: code, symbology: code == nil ? nil : .ean13, gtin13: code,
                capturedAt: "2026-01-01T00:00:00Z", capturedUTC: utc, timeSource: .exif, photoCount: photosPerCapture,
                quality: 0.8, rating: rating, createdAt: "2026-11-23T00:00:00Z", agentId: agent, agentName: agent))
            for position in 0 ..< photosPerCapture {
                let photo = serial * photosPerCapture + position
                let file = "IMG_" + pad(photo, 8) + ".jpg"
                result.photos.append(Photo(
                    id: id + "-" + String(position), captureId: id, position: position, originalName: file, sourcePath: file,
                    originalPath: "originals/\(name)/\(file)", thumbPath: "thumbs/\(name)/\(file)", thumbWidth: thumbWidth,
                    thumbHeight: thumbHeight, sha256: uniqueOriginals ? Digest.sha256(Self.content(of: file)) : hex(photo, 64),
                    byteSize: uniqueOriginals ? Int64(Self.content(of: file).count) : byteSize, format: .jpeg, width: 4032,
                    height: 3024, orientation: 1, make: nil, model: nil, takenAt: "2026-01-01T00:00:00Z",
                    takenUTC: utc + Double(position), timeSource: .exif, sharpness: 0.8, contrast: 0.7, brightness: 0.9,
                    decodeConfidence: code == nil ? nil : 1, quality: 0.8, rating: rating,
                    originalModified: uniqueOriginals ? Self.uniqueModified : Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)))
            }
            if let code, let first = result.photos.last(where: { $0.captureId == id && $0.position == 0 }) {
                result.hits.append(BarcodeHit(photoId: first.id, symbology: .ean13, text: code, gtin13: code, quality: 20,
                                              x: 100, y: 100, width: 400, height: 200))
            }
        }
        return result
    }

    /// The bytes of an original of its own (`--unique-originals`): small, and different for each name.
    static func content(of file: String) -> [UInt8] {
        Array("a synthetic original named \(file)\n".utf8)
    }

    /// The modification time every original of its own gets, in nanoseconds since 1970.
    static let uniqueModified: Int64 = 1_767_225_600_000_000_000

    /// Writes `photo`'s original of its own into `library`, whose folder exists, with
    /// `uniqueModified` as its time: plain system calls (not flushed), as the fill writes millions.
    static func writeOriginal(_ photo: Photo, in library: String) throws {
        let path = library + "/" + photo.originalPath
        let time = timespec(tv_sec: Int(uniqueModified / 1_000_000_000), tv_nsec: 0)
        do {
            let file = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: .newFile)
            try file.closeAfter {
                try file.writeAll(content(of: photo.originalName))
                try file.setTimes(accessed: time, modified: time)
            }
        } catch {
            throw FillError("cannot write \(path): \(error)")
        }
    }

    /// A valid EAN-13 made from `serial`.
    private func ean13(_ serial: Int) -> String {
        let body = "590" + pad(serial % 1_000_000_000, 9)
        let sum = body.reversed().enumerated().reduce(0) { $0 + ($1.element.wholeNumberValue ?? 0) * ($1.offset % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private func hex(_ value: Int, _ width: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
