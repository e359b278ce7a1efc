import Foundation
internal import SystemPackage
import FileSystem
import Vocabulary

/// The bytes of a dump file, uncompressed: read as they are, or — when the file starts with gzip's
/// magic bytes, whatever its name — through the system's `gzip -dc` in a child process, which
/// decompresses on another core while this one parses.
final class DumpInput {
    let path: FilePath
    /// The file's size in bytes, for progress.
    let fileSize: Int64
    /// Whether the file is gzip-compressed.
    let isGzip: Bool
    /// The file; gzip's standard input when it is compressed.
    private let file: FileHandle
    private var gzip: (process: Process, output: FileHandle, errors: Pipe)?

    /// Opens `path`; throws `ProductImportError.cannotRead` when it cannot be opened or is a folder.
    init(path: FilePath) throws {
        self.path = path
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw ProductImportError.cannotRead(path: path.string, reason: "\(error)")
        }
        file = FileHandle(fileDescriptor: descriptor.rawValue, closeOnDealloc: true)
        guard let status = try? descriptor.stat(), status.type == .regular else {
            throw ProductImportError.cannotRead(path: path.string, reason: "not a regular file")
        }
        fileSize = status.size
        isGzip = (try? descriptor.read(count: 2, at: 0)) == [0x1F, 0x8B]
        if isGzip { try startGzip() }
    }

    deinit {
        if let gzip, gzip.process.isRunning { gzip.process.terminate() }
    }

    /// How far into the file (compressed bytes) reading has come: gzip shares the file's offset.
    var fileOffset: Int64 {
        (try? FileDescriptor(rawValue: file.fileDescriptor).seek(offset: 0, from: .current)) ?? 0
    }

    /// Reads up to `count` uncompressed bytes into `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        let descriptor = FileDescriptor(rawValue: gzip?.output.fileDescriptor ?? file.fileDescriptor)
        do {
            return try descriptor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        } catch {
            throw ProductImportError.cannotRead(path: path.string, reason: "\(error)")
        }
    }

    /// After the last read: throws `ProductImportError.damagedGzip` when gzip found the stream cut
    /// short or damaged. Stops gzip early when reading ended before the end of the stream.
    func finish(stoppingEarly: Bool = false) throws {
        guard let gzip else { return }
        self.gzip = nil
        if stoppingEarly, gzip.process.isRunning { gzip.process.terminate() }
        gzip.process.waitUntilExit()
        guard !stoppingEarly, gzip.process.terminationStatus == 1 else { return }
        let message = String(decoding: gzip.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        throw ProductImportError.damagedGzip(path: path.string, reason: message.split(separator: "\n").last.map {
            $0.replacingOccurrences(of: "gzip: stdin: ", with: "")
        } ?? "gzip failed")
    }

    /// `gzip -dc`, reading the file from its standard input; exit 2 (a warning such as trailing
    /// zeros) still means the data is whole.
    private func startGzip() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ["/usr/bin/gzip", "/bin/gzip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/bin/gzip")
        process.arguments = ["-dc"]
        process.standardInput = file
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw ProductImportError.cannotRead(path: path.string, reason: "cannot start gzip to decompress it: \(error)")
        }
        gzip = (process, output.fileHandleForReading, errors)
    }
}
