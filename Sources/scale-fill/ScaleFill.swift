import ArgumentParser
import Catalog
import Foundation
import Logging
import SystemPackage
import FileSystem

/// `scale-fill`: a synthetic catalogue of any size, written through the catalogue's own code, with
/// its library files as hard links to one sample original and thumbnail. For `bench/scale.py` and
/// the tests that check memory stays bounded; not installed with `ingest`.
@main
struct ScaleFill: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fills a new catalogue with synthetic captures, photos and barcode hits, for benchmarks."
    )

    @Option(help: "The catalogue to create (it must not exist).")
    var catalog: String

    @Option(help: "The library folder the photos' files are linked into.")
    var library: String

    @Option(help: "How many captures.")
    var captures: Int

    @Option(help: "Photos per capture.")
    var photosPerCapture = 3

    @Option(help: "A real JPEG every original links to.")
    var original: String

    @Option(help: "A real JPEG every thumbnail links to.")
    var thumbnail: String

    @Option(help: "The thumbnail's pixel size, WIDTHxHEIGHT.")
    var thumbnailSize: String

    @Flag(help: "Only the rows: link no files.")
    var noFiles = false

    @Flag(help: "Write every original as a small file of its own, with its real SHA-256 in the row, so a full verify finds it sound.")
    var uniqueOriginals = false

    /// Captures per set (inbox folder), as a shelf of products would give.
    static let setSize = 25
    /// Sets written in one transaction.
    static let batchSize = 400

    func run() throws {
        guard !FileManager.default.fileExists(atPath: catalog) else { throw FillError("\(catalog) exists") }
        let catalogue = try Catalogue(path: catalog, logger: Logger(label: "scale-fill"))
        defer { try? catalogue.close() }
        let sizes = thumbnailSize.split(separator: "x").compactMap { Int($0) }
        guard sizes.count == 2 else { throw FillError("--thumbnail-size must be WIDTHxHEIGHT") }
        guard let info = try? FilePath(original).stat() else { throw FillError("cannot read \(original)") }
        let maker = SyntheticSet(photosPerCapture: photosPerCapture, byteSize: info.size,
                                 modified: info.st_mtim, thumbWidth: sizes[0], thumbHeight: sizes[1],
                                 uniqueOriginals: uniqueOriginals)
        let sets = (captures + Self.setSize - 1) / Self.setSize
        var batch: [CommittedSet] = []
        var samples = SampleCopies(folder: FilePath(library).removingLastComponent().appending("scale-samples"))
        for number in 0 ..< sets {
            let set = maker.set(number, captures: min(Self.setSize, captures - number * Self.setSize))
            if !noFiles { try place(set, samples: &samples) }
            batch.append(set)
            if batch.count == Self.batchSize || number == sets - 1 {
                try catalogue.commit(batch: batch)
                batch.removeAll(keepingCapacity: true)
                FileHandle.standardError.write(Data("\r\(number + 1)/\(sets) sets".utf8))
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// Puts every photo's original and thumbnail of `set` into the library: links to the samples, or
    /// for `--unique-originals` an original of its own.
    private func place(_ set: CommittedSet, samples: inout SampleCopies) throws {
        var links = [(thumbnail, set.photos.map(\.thumbPath))]
        if uniqueOriginals {
            for folder in Set(set.photos.map { FilePath($0.originalPath).removingLastComponent() }) {
                try FileManager.default.createDirectory(atPath: FilePath(library).pushing(folder).string,
                                                        withIntermediateDirectories: true)
            }
            for photo in set.photos { try SyntheticSet.writeOriginal(photo, in: library) }
        } else {
            links.append((original, set.photos.map(\.originalPath)))
        }
        for (sample, paths) in links {
            let role = sample == original ? "original" : "thumbnail"
            for folder in Set(paths.map { FilePath($0).removingLastComponent() }) {
                try FileManager.default.createDirectory(atPath: FilePath(library).pushing(folder).string,
                                                        withIntermediateDirectories: true)
            }
            for path in paths {
                let target = FilePath(library).appending(path)
                let source = try samples.copy(of: sample, as: role)
                do {
                    try source.link(to: target)
                } catch {
                    throw FillError("cannot link \(target): \(error)")
                }
            }
        }
    }
}

/// Copies of the sample files (same bytes, same modification time) in a folder beside the library,
/// each the target of at most `linksPerCopy` links: a file system allows only so many (ext4: 65,000).
struct SampleCopies {
    var folder: FilePath
    static let linksPerCopy = 60_000
    private var links: [String: Int] = [:]

    init(folder: FilePath) {
        self.folder = folder
    }

    /// The copy of `sample`, named after its `role`, the next link should point to.
    mutating func copy(of sample: String, as role: String) throws -> FilePath {
        let count = links[role, default: 0]
        links[role] = count + 1
        let copy = folder.appending("\(role)-\(count / Self.linksPerCopy).jpg")
        if count % Self.linksPerCopy == 0 && !FileManager.default.fileExists(atPath: copy.string) {
            try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sample, toPath: copy.string)
            // The sample's own modification time, to the nanosecond, as the rows record it.
            var info = stat()
            guard stat(sample, &info) == 0 else { throw FillError("cannot read \(sample)") }
            var times = [info.st_atim, info.st_mtim]
            guard copy.withPlatformString({ utimensat(AT_FDCWD, $0, &times, 0) }) == 0 else { throw FillError("cannot set the time of \(copy)") }
        }
        return copy
    }
}

/// Why the fill stopped.
struct FillError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
