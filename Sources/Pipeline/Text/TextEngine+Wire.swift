import FileSystem
import Foundation
import Imaging
import SystemPackage

/// What goes between `ingest` and its engine: a request is the image's width and height (two
/// 32-bit numbers), its seconds (a 64-bit float) and its pixels; an answer is its kind (a byte:
/// 0 words, 1 an error), the processor seconds spent (a 64-bit float), the length of its body (a
/// 32-bit number) and the body, JSON. Numbers in the machine's byte order: both ends are one binary.
enum Wire {
    enum Answer {
        case words([RecognizedWord])
        case failure(TextError)
    }

    /// The engine's error, as the reader rethrows it.
    struct Failure: Codable {
        var kind: String
        var detail: String?
        var seconds: Double?
    }

    static func send(_ image: GreyImage, seconds: Double, to requests: FileDescriptor) throws {
        var header = [UInt8]()
        append(UInt32(image.width), to: &header)
        append(UInt32(image.height), to: &header)
        append(seconds.bitPattern, to: &header)
        _ = try requests.writeAll(header)
        _ = try image.pixels.withUnsafeBytes { try requests.writeAll($0) }
    }

    static func request(from requests: FileDescriptor) throws -> (image: GreyImage, seconds: Double)? {
        let header = try requests.read(upTo: 16)
        guard header.count == 16 else { return nil }
        let (width, height) = (Int(number(UInt32.self, in: header, at: 0)), Int(number(UInt32.self, in: header, at: 4)))
        let seconds = Double(bitPattern: number(UInt64.self, in: header, at: 8))
        let pixels = try requests.read(upTo: width * height)
        guard pixels.count == width * height else { return nil }
        return (GreyImage(width: width, height: height, pixels: pixels), seconds)
    }

    static func write(_ answer: Answer, seconds: Double, to answers: FileDescriptor) throws {
        let (kind, body): (UInt8, Data) = switch answer {
        case .words(let words): (0, try JSONEncoder().encode(words))
        case .failure(let error): (1, try JSONEncoder().encode(Failure(error)))
        }
        var frame = [kind]
        append(seconds.bitPattern, to: &frame)
        append(UInt32(body.count), to: &frame)
        frame += body
        _ = try answers.writeAll(frame)
    }

    static func answer(from answers: FileDescriptor, until deadline: Date) throws(EngineError) -> (words: [RecognizedWord], seconds: Double) {
        let header = try read(13, from: answers, until: deadline)
        let seconds = Double(bitPattern: number(UInt64.self, in: header, at: 1))
        let body = Data(try read(Int(number(UInt32.self, in: header, at: 9)), from: answers, until: deadline))
        if header[0] == 0, let words = try? JSONDecoder().decode([RecognizedWord].self, from: body) { return (words, seconds) }
        guard let failure = try? JSONDecoder().decode(Failure.self, from: body) else { throw .stopped("it answered nonsense") }
        throw .answered(failure.error)
    }

    /// `count` bytes, waiting for them until `deadline`.
    private static func read(_ count: Int, from answers: FileDescriptor, until deadline: Date) throws(EngineError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timedOut }
            do {
                guard try answers.waitUntilReadable(milliseconds: Int32(min(left * 1000, 60_000).rounded(.up))) else { continue }
                let read = try bytes.withUnsafeMutableBytes { try answers.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                guard read > 0 else { throw EngineError.stopped("its output ended") }
                filled += read
            } catch let error as EngineError {
                throw error
            } catch {
                throw .stopped("its output failed: \(error)")
            }
        }
        return bytes
    }

    private static func append<Number: FixedWidthInteger>(_ number: Number, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: number) { bytes += $0 }
    }

    private static func number<Number: FixedWidthInteger>(_: Number.Type, in bytes: [UInt8], at offset: Int) -> Number {
        bytes[offset..<offset + MemoryLayout<Number>.size].withUnsafeBytes { $0.loadUnaligned(as: Number.self) }
    }
}

extension Wire.Failure {
    init(_ error: TextError) {
        switch error {
        case .missingLanguage(let language): self.init(kind: "missingLanguage", detail: language)
        case .cannotStart(let why): self.init(kind: "cannotStart", detail: why)
        case .tookTooLong(let seconds): self.init(kind: "tookTooLong", seconds: seconds)
        case .failed(let why): self.init(kind: "failed", detail: why)
        case .cancelled: self.init(kind: "cancelled")
        }
    }

    var error: TextError {
        switch kind {
        case "missingLanguage": .missingLanguage(detail ?? "")
        case "cannotStart": .cannotStart(detail ?? "")
        case "tookTooLong": .tookTooLong(seconds: seconds ?? 0)
        case "cancelled": .cancelled
        default: .failed(detail ?? kind)
        }
    }
}
